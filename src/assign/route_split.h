/*
 * route_split.h -- what the split route (route_split.c) reports of a step it solved: the
 * indices of ckm_assign_result.stat. A step it handed on reports its fallback route's.
 */
#ifndef CKM_ASSIGN_ROUTE_SPLIT_H
#define CKM_ASSIGN_ROUTE_SPLIT_H

enum {
    CKM_SPLIT_PAIRED,  /* groups with a pair (soft or hard cannot-link) */
    CKM_SPLIT_FIXED,   /* of them, fixed by dominance */
    CKM_SPLIT_PARTS,   /* parts searched */
    CKM_SPLIT_LARGEST, /* groups in the largest part */
    CKM_SPLIT_NODES,   /* search nodes over all parts */
    CKM_SPLIT_CUT,     /* parts the search left open that went to branch and cut (part_cuts.h) */
    CKM_SPLIT_LPS,     /* the LPs those solved */
    CKM_SPLIT_PRICED,  /* the priced sized step's rounds (split_prices.h) */
    CKM_SPLIT_PRICE_NODES, /* and the nodes of its branching */
    CKM_SPLIT_WHOLE    /* 1: the sized step's one branch and cut ran */
};

#endif
