class Foo; end
class Bar; end
a = []
100.times { a << Foo.new }
30.times { a << Bar.new }
50.times { a << ("x" * 1000) }
20.times { a << ("y" * 10) }
