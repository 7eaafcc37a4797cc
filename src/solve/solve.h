/*
 * solve.h -- what solve.c shares with the rest of src/solve (certify.c, predict.c): the
 * settings as read and the stop chain.
 */
#ifndef CKM_SOLVE_H
#define CKM_SOLVE_H

#include "algo.h"

/* The caller's settings (NULL: the defaults), read up to its struct_size (docs/abi.md):
 * members it does not know keep their defaults (solve.c). */
ckm_error ckm_read_settings(const ckm_settings *in, ckm_settings *s, ckm_err *err);

/* should_stop as the library's loops see it: the caller's interrupt flag, then its callback
 * (solve.c; used as should_stop with the chain as stop_user when settings.interrupt is set). */
typedef struct ckm_stop_chain {
    const volatile int *flag;
    ckm_stop_fn fn;
    void *user;
} ckm_stop_chain;
int ckm_chained_stop(void *u);
/* The chain of s's interrupt flag and callback into *chain and, when the flag is set, s's
 * should_stop / stop_user replaced by ckm_chained_stop over it (chain must outlive s's use). */
void ckm_stop_chain_install(ckm_settings *s, ckm_stop_chain *chain);

#endif
