/*
 * transport_ws.c -- the transportation solver's workspace (transport_ws.h): grow-only
 * buffers, every allocation counted in bytes.
 */
#include "core.h"
#include "transport_ws.h"

#include <stdlib.h>
#include <string.h>

ckm_transport_ws *ckm_transport_ws_new(void)
{
    return ckm_calloc_array(1, sizeof(ckm_transport_ws));
}

static void free_k(ckm_transport_ws *w)
{
    if (w->mem)
        for (size_t a = 0; a < w->k_cap; a++)
            free(w->mem[a].a);
    free(w->mem);
    free(w->size);
    free(w->f);
    free(w->cap);
    free(w->e);
    free(w->pi);
    free(w->dist);
    free(w->gate);
    free(w->pred);
    free(w->order);
    free(w->pred_pt);
    free(w->cnt);
    free(w->slo);
    free(w->shi);
    w->mem = NULL;
    w->size = w->f = w->cap = w->e = NULL;
    w->pi = w->dist = w->gate = NULL;
    w->pred = w->order = NULL;
    w->pred_pt = NULL;
    w->cnt = w->slo = w->shi = NULL;
    w->k_cap = 0;
}

static void free_kk(ckm_transport_ws *w)
{
    free(w->len);
    free(w->tau);
    free(w->head);
    free(w->headT);
    w->len = NULL;
    w->tau = w->head = w->headT = NULL;
    w->kk_cap = 0;
}

void ckm_transport_ws_free(ckm_transport_ws *w)
{
    if (!w)
        return;
    free(w->pos);
    free_k(w);
    free_kk(w);
    free(w->key);
    free(w->pt);
    free(w->cost);
    free(w->sc);
    free(w->slab);
    ckm_transport_ws_free(w->sub);
    free(w);
}

size_t ckm_transport_ws_bytes(const ckm_transport_ws *w)
{
    return w ? w->bytes + ckm_transport_ws_bytes(w->sub) : 0;
}

/* malloc that counts (count * elem checked by the caller); large: an array read at random
 * (ckm_alloc_large's huge pages: the move lists and the points' places). The cost matrix is
 * read in order and stays in ordinary pages; with it in huge pages 10^6 x 16, k = 100 ran
 * 10-15 % slower, but so did the same code without any huge pages (the JCC erratum,
 * CMakeLists.txt), so nothing was measured either way. */
static void *take_as(ckm_transport_ws *w, size_t count, size_t elem, bool large)
{
    void *p = large ? ckm_alloc_large(count ? count : 1, elem) : ckm_alloc_array(count ? count : 1, elem);
    if (p)
        w->bytes += (count ? count : 1) * elem;
    return p;
}

static void *take(ckm_transport_ws *w, size_t count, size_t elem) { return take_as(w, count, elem, false); }

bool ckm_transport_ws_array(ckm_transport_ws *w, void **p, size_t *cap, size_t count, size_t elem)
{
    size_t bytes;
    if (!ckm_mul_ok(count, elem, &bytes))
        return false;
    if (*p && count <= *cap)
        return true;
    free(*p);
    *p = take(w, count, elem);
    *cap = *p ? count : 0;
    return *p != NULL;
}

bool ckm_transport_ws_members(ckm_transport_ws *w, size_t a, size_t need)
{
    ckm_members *m = &w->mem[a];
    size_t before = m->cap;
    if (!ckm_grow((void **)&m->a, &m->cap, need, sizeof(int32_t)))
        return false;
    w->bytes += (m->cap - before) * sizeof(int32_t);
    return true;
}

bool ckm_transport_ws_reserve(ckm_transport_ws *w, size_t n, size_t k, size_t L)
{
    size_t kk, kkL, k1 = k + 1;
    if (!ckm_mul_ok(k, k, &kk) || !ckm_mul_ok(kk, L, &kkL) || k1 == 0)
        return false;
    kk = kk ? kk : 1;
    kkL = kkL ? kkL : 1;
    if (!w->pos || n > w->n_cap) {
        free(w->pos);
        w->pos = take_as(w, n, sizeof(size_t), true);
        w->n_cap = w->pos ? n : 0;
        if (!w->pos)
            return false;
    }
    if (!w->mem || k1 > w->k_cap) {
        free_k(w);
        w->mem = ckm_calloc_array(k1, sizeof(ckm_members));
        w->bytes += w->mem ? k1 * sizeof(ckm_members) : 0;
        w->size = take(w, k1, sizeof(long long));
        w->f = take(w, k1, sizeof(long long));
        w->cap = take(w, k1, sizeof(long long));
        w->e = take(w, k1, sizeof(long long));
        w->pi = take(w, k1, sizeof(double));
        w->dist = take(w, k1, sizeof(double));
        w->gate = take(w, k1, sizeof(double));
        w->pred = take(w, k1, sizeof(int));
        w->order = take(w, k1, sizeof(int));
        w->pred_pt = take(w, k1, sizeof(int32_t));
        w->cnt = take(w, k1, sizeof(size_t));
        w->slo = take(w, k1, sizeof(size_t));
        w->shi = take(w, k1, sizeof(size_t));
        w->k_cap = k1;
        if (!w->mem || !w->size || !w->f || !w->cap || !w->e || !w->pi || !w->dist || !w->gate || !w->pred ||
            !w->order || !w->pred_pt || !w->cnt || !w->slo || !w->shi) {
            free_k(w);
            return false;
        }
    }
    if (!w->len || kk > w->kk_cap) {
        free_kk(w);
        w->len = take(w, kk, 1);
        w->tau = take(w, kk, sizeof(double));
        w->head = take(w, kk, sizeof(double));
        w->headT = take(w, kk, sizeof(double));
        w->kk_cap = kk;
        if (!w->len || !w->tau || !w->head || !w->headT) {
            free_kk(w);
            return false;
        }
    }
    if (!w->key || kkL > w->kkL_cap) {
        free(w->key);
        free(w->pt);
        w->key = take_as(w, kkL, sizeof(double), true);
        w->pt = take_as(w, kkL, sizeof(int32_t), true);
        w->kkL_cap = kkL;
        if (!w->key || !w->pt) {
            free(w->key);
            free(w->pt);
            w->key = NULL;
            w->pt = NULL;
            w->kkL_cap = 0;
            return false;
        }
    }
    for (size_t a = 0; a < k; a++)
        w->mem[a].len = 0;
    return true;
}
