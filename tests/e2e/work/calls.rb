class Foo
  def bar(n) = n + 1
  def baz(n) = n * 2
end
f = Foo.new
1000.times { |i| f.bar(i) }
300.times { |i| f.baz(i) }
