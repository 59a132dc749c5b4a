import sys
def c(): return 1
def b(): return c() + 1
def d(): return 2
def a(): return b() + d()
sys.setprofile(lambda *x: None)
a()
sys.setprofile(None)
