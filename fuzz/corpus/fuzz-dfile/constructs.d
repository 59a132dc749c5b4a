#define Oid unsigned int
typedef unsigned long long u64_t;
provider p {
 probe a-b(Oid relid, u64_t, char buf[16], void (*cb)(int), struct s *x);
 probe v(void);
};
translator t < struct s *s > { x = s->x; y = "};"; };
inline int N = 5;
#pragma D attributes Evolving provider p provider
