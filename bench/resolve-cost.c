/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sdtrace/sdtrace.h>
/* usage: resolve-cost PID CACHE_DIR SPEC RUNS: the time of sdt_cache__resolve_target() for PID */
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
int main(int argc,char**argv){
  pid_t pid=atoi(argv[1]); int R=atoi(argv[4]);
  struct sdt_cache*c; struct sdt_spec*s; struct sdt_targets*t;
  if(sdt_cache__open(argv[2],NULL,&c)||sdt_spec__parse(argv[3],&s)) {fprintf(stderr,"%s\n",sdt_errmsg());return 1;}
  SDT_OPTS(sdt_resolve_target,tg,.pids=&pid,.npids=1);
  double best=1e9, sum=0;
  for(int r=0;r<R;r++){double t0=now(); if(sdt_cache__resolve_target(c,&s,1,&tg,NULL,&t)){fprintf(stderr,"%s\n",sdt_errmsg());return 1;} double d=now()-t0; sum+=d; if(d<best)best=d; if(r==R-1)printf("%zu targets; ",sdt_targets__count(t)); sdt_targets__free(t);}
  printf("min %.3f ms, mean %.3f ms\n",best*1e3,sum/R*1e3);
}
