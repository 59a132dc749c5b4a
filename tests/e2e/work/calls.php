<?php
class Foo {
  function bar($n) { return $n + 1; }
  static function baz($n) { return $n * 2; }
}
function top($n) { return $n; }
$f = new Foo();
for ($i = 0; $i < 1000; $i++) $f->bar($i);
for ($i = 0; $i < 300; $i++) Foo::baz($i);
for ($i = 0; $i < 200; $i++) top($i);
