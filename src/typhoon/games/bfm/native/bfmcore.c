/* Battle for Moscow: a native core of the rules engine (issue 17).
 *
 * A transcription, in plain C, of the Python engine of typhoon.games.bfm (state.py, flow.py,
 * setup_phase.py, replacement_phase.py, movement_phase.py, combat_phase.py, the mechanics it
 * uses, and the driver's forced-action loop). The Python engine is the reference; this core is
 * tested against it position by position (tests/test_bfm_native.py).
 *
 * No game data lives here: every table (map, terrain, rivers, cities, counters, CRT, phases,
 * turn track, options, action-code layout) is handed over by the Python side
 * (typhoon.games.bfm.native.tables) when a Tables object is made.
 *
 * Actions are the integer codes of the research environments' fixed action space
 * (typhoon.games.bfm.env.actions, docs/RESEARCH.md).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXH 192 /* hex slots (3 x 64-bit words) */
#define MAXU 64  /* units (a 64-bit set) */
#define MAXC 24  /* cities */
#define MAXPH 32 /* phases */
#define MAXT 64  /* turns */
#define MAXB 64  /* battles */
#define MAXA 8   /* attackers of one battle (six neighbours) */
#define MAXPATH 64

/* combat steps (state.py) */
enum { DECLARE, CHOOSE, ROLL, STAND, LOSS, RETREAT, ADVANCE };
/* phase kinds */
enum { K_SETUP, K_REPLACEMENT, K_MOVEMENT, K_COMBAT };
/* movers */
enum { M_ALL, M_PANZER, M_RAIL };
/* CRT results, as rules.RESULTS */
enum { R_NE, R_DR, R_DRL, R_AL, R_DE, R_EX };
/* action kinds */
enum { A_END, A_STD, A_PLACE, A_MOVE, A_ATTACK, A_RESOLVE, A_ROLL, A_STAND, A_LOSE, A_RETREAT, A_ADVANCE,
       A_REBUILD, A_RESTORE, A_REINFORCE };

static PyObject *IllegalCodeError; /* ValueError subclass */
static PyObject *CoreError;        /* ValueError subclass: tables or states the core cannot hold */

/* ---------------------------------------------------------------------------------------- */
/* bitsets over hex slots                                                                    */

typedef struct {
    uint64_t w[3];
} BS;

static inline BS bs_zero(void) {
    BS r = {{0, 0, 0}};
    return r;
}
static inline BS bs_or(BS a, BS b) {
    BS r = {{a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2]}};
    return r;
}
static inline BS bs_and(BS a, BS b) {
    BS r = {{a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2]}};
    return r;
}
static inline BS bs_andn(BS a, BS b) {
    BS r = {{a.w[0] & ~b.w[0], a.w[1] & ~b.w[1], a.w[2] & ~b.w[2]}};
    return r;
}
static inline int bs_any(BS a) { return (a.w[0] | a.w[1] | a.w[2]) != 0; }
static inline int bs_eq(BS a, BS b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2]; }
static inline int bs_has(BS a, int h) { return (int)((a.w[h >> 6] >> (h & 63)) & 1u); }
static inline void bs_set(BS *a, int h) { a->w[h >> 6] |= (uint64_t)1 << (h & 63); }
static inline void bs_clr(BS *a, int h) { a->w[h >> 6] &= ~((uint64_t)1 << (h & 63)); }
static inline BS bs_bit(int h) {
    BS r = bs_zero();
    bs_set(&r, h);
    return r;
}
static inline BS bs_shl(BS a, int k) {
    BS r;
    r.w[2] = (a.w[2] << k) | (a.w[1] >> (64 - k));
    r.w[1] = (a.w[1] << k) | (a.w[0] >> (64 - k));
    r.w[0] = a.w[0] << k;
    return r;
}
static inline BS bs_shr(BS a, int k) {
    BS r;
    r.w[0] = (a.w[0] >> k) | (a.w[1] << (64 - k));
    r.w[1] = (a.w[1] >> k) | (a.w[2] << (64 - k));
    r.w[2] = a.w[2] >> k;
    return r;
}
#define BS_FOR(mask, h)                                                                                   \
    for (int _wi = 0; _wi < 3; _wi++)                                                                     \
        for (uint64_t _x = (mask).w[_wi]; _x; _x &= _x - 1)                                               \
            for (int h = _wi * 64 + __builtin_ctzll(_x), _once = 1; _once; _once = 0)

/* ---------------------------------------------------------------------------------------- */
/* the tables of one ruleset                                                                */

typedef struct {
    int size, stride;
    BS valid, low, high;
    int16_t nbd[MAXH][6];
    uint8_t *dist; /* size * size */
    int16_t pad[MAXH];
    int8_t cost[MAXH];
    int16_t rail_nb[MAXH][6];
    int8_t rail_n[MAXH];
    int8_t rail_cost[MAXH];
    BS rail_mask;
    int ncity;
    int city_hex[MAXC];
    int8_t city_at[MAXH];
    uint32_t control0;
    BS moscow, edge[2], stand_fast;
    int nsetup[2];
    int setup[2][MAXH];
    int nstd[2];
    int std_u[2][MAXU], std_h[2][MAXU];
    int nu;
    int u_side[MAXU], u_panzer[MAXU], u_full[MAXU], u_half[MAXU], u_move[MAXU];
    int8_t shift[2][MAXH];
    BS river[MAXH];
    int crt[7][7];
    int nph;
    int ph_kind[MAXPH], ph_side[MAXPH], ph_movers[MAXPH];
    int first_turn_phase;
    uint32_t skip1;
    int last_turn;
    uint64_t mud; /* bit per turn */
    int mud_all;
    int repl[2][MAXT];
    int fs_unit, fs_mode, fs_turn, fs_full;
    int victory; /* 0 moscow, 1 moscow_and_city */
    int retreat_beyond;
    /* action codes */
    int c_end, c_std, c_stand, c_advnone, c_to, c_attack, c_resolve, c_lose, c_advance, c_restore, c_rshort,
        c_rlong, n_rlong, npad;
    /* moves through cities: per unit, sorted keys (dst | citymask << 8) and their codes */
    int via_start[MAXU + 1];
    uint32_t *via_key;
    int32_t *via_code;
    /* the research environments' observation (typhoon.games.bfm.env.observation), once set */
    int obs_ok, obs_nch, ch_unit, ch_rows, first_global;
    int g_turn, g_phase, g_step, g_mud, g_to_act, g_observer, g_repl, g_vpg, g_odds, g_result, g_owed, g_due,
        g_arrived, g_off;
    double vpg, strength_scale, move_scale, repl_scale, odds_scale;
    int side_count[2], side_lo[2], side_hi[2];
    BS city_all;
    float *obs_template;
} Tables;

typedef struct {
    PyObject_HEAD Tables t;
} TablesObject;

/* ---------------------------------------------------------------------------------------- */
/* a position                                                                               */

typedef struct {
    int8_t def, n;
    int8_t att[MAXA];
} Bat;

typedef struct {
    int32_t turn, phase;
    int16_t loc[MAXU], steps[MAXU];
    int16_t at[MAXH];
    BS occ[2];
    uint32_t control;
    uint64_t done, rebuilt, arrived;
    int32_t repl, stack, nb, cstep;
    Bat bat[MAXB];
    int32_t has_cur, cur_hex, cur_col, cur_res, cur_owed;
    Bat cur;
    int32_t result; /* -1 going on, 0 german, 1 soviet, 2 draw */
} G;

typedef struct {
    int32_t code;
    int8_t kind;
    int16_t a, b;
    int32_t c;
} Act;

/* work space of a position: the per-phase move cache, the legal list, retreat paths */
typedef struct {
    uint64_t mv_valid;
    BS dmask[MAXU];
    int32_t mv_off[MAXU], mv_n[MAXU];
    uint32_t *mv_ent;
    int32_t *mv_code;
    int mv_used, mv_cap;
    Act *acts;
    int nacts, cap_acts, legal_valid;
    int16_t *rp; /* retreat paths: [len, hexes...] */
    int rp_used, rp_cap;
    int err; /* 0 ok; 1 out of memory; 2 a table overflowed; 3 a move outside the code table */
} W;

static void w_free(W *w) {
    PyMem_Free(w->mv_ent);
    PyMem_Free(w->mv_code);
    PyMem_Free(w->acts);
    PyMem_Free(w->rp);
    memset(w, 0, sizeof(*w));
}

static int grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *q = PyMem_Realloc(*p, (size_t)nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int push_act(W *w, int code, int kind, int a, int b, int c) {
    if (w->nacts >= w->cap_acts) {
        if (grow((void **)&w->acts, &w->cap_acts, w->nacts + 1, sizeof(Act)) < 0) {
            w->err = 1;
            return -1;
        }
    }
    Act *x = &w->acts[w->nacts++];
    x->code = code;
    x->kind = (int8_t)kind;
    x->a = (int16_t)a;
    x->b = (int16_t)b;
    x->c = c;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* reading the position (state.py)                                                          */

static inline BS expand(const Tables *t, BS m) {
    int st = t->stride;
    BS hi = bs_and(m, t->high), lo = bs_and(m, t->low);
    BS out = bs_or(bs_or(bs_shr(m, 1), bs_shl(m, 1)), bs_or(bs_shl(m, st), bs_shr(m, st)));
    out = bs_or(out, bs_or(bs_shl(hi, st - 1), bs_shr(hi, st + 1)));
    out = bs_or(out, bs_or(bs_shl(lo, st + 1), bs_shr(lo, st - 1)));
    return bs_and(out, t->valid);
}

static inline int is_mud(const Tables *t, int turn) { return turn >= 0 && turn < 64 && ((t->mud >> turn) & 1); }

static inline int strength(const Tables *t, const G *g, int u) {
    return g->steps[u] == 2 ? t->u_full[u] : g->steps[u] == 1 ? t->u_half[u] : 0;
}

static inline int controller(const G *g, int city) { return ((g->control >> city) & 1) ? 0 : 1; }

static BS controlled_city_mask(const Tables *t, const G *g, int side) {
    BS m = bs_zero();
    for (int i = 0; i < t->ncity; i++)
        if (controller(g, i) == side)
            bs_set(&m, t->city_hex[i]);
    return m;
}

static inline uint32_t cbit(const Tables *t, int h) { return t->city_at[h] >= 0 ? (uint32_t)1 << t->city_at[h] : 0; }

static void put(const Tables *t, G *g, int u, int h) {
    g->loc[u] = (int16_t)h;
    g->at[h] = (int16_t)u;
    bs_set(&g->occ[t->u_side[u]], h);
}

static void lift(const Tables *t, G *g, int u) {
    int h = g->loc[u];
    g->loc[u] = -1;
    g->steps[u] = 0;
    if (h >= 0 && g->at[h] == u) {
        g->at[h] = -1;
        bs_clr(&g->occ[t->u_side[u]], h);
    }
}

static void relocate(const Tables *t, G *g, int u, int h) {
    int src = g->loc[u], side = t->u_side[u];
    if (g->at[src] == u) {
        g->at[src] = -1;
        bs_clr(&g->occ[side], src);
    }
    g->loc[u] = (int16_t)h;
    g->at[h] = (int16_t)u;
    bs_set(&g->occ[side], h);
}

/* take_cities over a set of city indices */
static int take_cities(G *g, int side, uint32_t cities) {
    uint32_t before = g->control;
    if (side == 0)
        g->control |= cities;
    else
        g->control &= ~cities;
    return g->control != before;
}

static int lose_step(const Tables *t, G *g, int u) {
    int lost = g->steps[u] == 2 ? t->u_full[u] - t->u_half[u] : t->u_half[u];
    if (g->steps[u] == 2)
        g->steps[u] = 1;
    else
        lift(t, g, u);
    return lost;
}

static int current_player(const Tables *t, const G *g) {
    if (g->result >= 0)
        return -2;
    int ph = g->phase;
    if (t->ph_kind[ph] == K_COMBAT) {
        if (g->cstep == ROLL)
            return -1;
        if (g->cstep == STAND)
            return 1 - t->ph_side[ph];
    }
    return t->ph_side[ph];
}

static inline int is_chance(const Tables *t, const G *g) {
    return g->result < 0 && g->cstep == ROLL && t->ph_kind[g->phase] == K_COMBAT;
}

/* ---------------------------------------------------------------------------------------- */
/* sequence of play (flow.py)                                                               */

static void enter_phase(const Tables *t, G *g, W *w) {
    g->done = 0;
    g->stack = -1;
    g->nb = 0;
    g->cstep = DECLARE;
    g->has_cur = 0;
    g->repl = 0;
    g->rebuilt = 0;
    w->mv_valid = 0;
    w->mv_used = 0;
    if (t->ph_kind[g->phase] == K_REPLACEMENT) {
        int side = t->ph_side[g->phase];
        g->repl = (g->turn >= 0 && g->turn < MAXT) ? t->repl[side][g->turn] : 0;
    }
}

static int moscow_holder(const Tables *t, const G *g) {
    int seen = 0; /* bit 0 german, bit 1 soviet */
    for (int i = 0; i < t->ncity; i++)
        if (bs_has(t->moscow, t->city_hex[i]))
            seen |= 1 << controller(g, i);
    /* hexes of Moscow without a city never count (the Python reads city_controller_at) */
    if (seen == 1)
        return 0;
    if (seen == 2)
        return 1;
    return -1;
}

static void finish_game(const Tables *t, G *g) {
    int holder = moscow_holder(t, g);
    if (t->victory == 0) {
        g->result = holder == 0 ? 0 : 1; /* SIDE_NAMES[-1] is "soviet" */
    } else if (holder == 0) {
        g->result = 0;
    } else {
        int others = 0;
        for (int i = 0; i < t->ncity; i++)
            if (!bs_has(t->moscow, t->city_hex[i]) && controller(g, i) == 1)
                others++;
        g->result = others >= 1 ? 1 : 2;
    }
    g->done = 0;
    g->stack = -1;
    g->nb = 0;
    g->has_cur = 0;
    g->cstep = DECLARE;
    g->repl = 0;
}

static void end_phase(const Tables *t, G *g, W *w) {
    int phase = g->phase + 1, turn = g->turn;
    for (;;) {
        if (phase >= t->nph) {
            if (turn >= t->last_turn) {
                finish_game(t, g);
                return;
            }
            turn += 1;
            phase = t->first_turn_phase;
        }
        if (turn == 0 && phase >= t->first_turn_phase)
            turn = 1;
        if (turn == 1 && ((t->skip1 >> phase) & 1)) {
            phase += 1;
            continue;
        }
        break;
    }
    g->turn = turn;
    g->phase = phase;
    enter_phase(t, g, w);
}

static int reinforcement_due(const Tables *t, const G *g) {
    int u = t->fs_unit;
    if (u >= 0 && t->fs_mode == 1 && g->turn >= t->fs_turn && t->ph_kind[g->phase] == K_REPLACEMENT &&
        t->ph_side[g->phase] == 1 && !((g->arrived >> u) & 1))
        return u;
    return -1;
}

static int unit_available(const Tables *t, const G *g, int u) {
    if (u != t->fs_unit)
        return 1;
    if (t->fs_mode == 0)
        return g->turn >= t->fs_turn;
    return (int)((g->arrived >> u) & 1);
}

static void init_game(const Tables *t, G *g, W *w) {
    memset(g, 0, sizeof(*g));
    for (int u = 0; u < MAXU; u++)
        g->loc[u] = -1;
    for (int h = 0; h < MAXH; h++)
        g->at[h] = -1;
    g->control = t->control0;
    g->stack = -1;
    g->cstep = DECLARE;
    g->result = -1;
    enter_phase(t, g, w);
}

/* ---------------------------------------------------------------------------------------- */
/* set-up (setup_phase.py)                                                                  */

static void setup_legal(const Tables *t, const G *g, W *w) {
    int side = t->ph_side[g->phase];
    if (!g->done)
        push_act(w, t->c_std, A_STD, 0, 0, 0);
    for (int u = 0; u < t->nu; u++) {
        if (t->u_side[u] != side || u == t->fs_unit || ((g->done >> u) & 1))
            continue;
        for (int i = 0; i < t->nsetup[side]; i++) {
            int h = t->setup[side][i];
            if (g->at[h] < 0)
                push_act(w, t->c_to + u * t->npad + t->pad[h], A_PLACE, u, h, 0);
        }
    }
}

static void setup_place(const Tables *t, G *g, int u, int h) {
    g->steps[u] = t->u_side[u] == 0 ? 2 : 1;
    put(t, g, u, h);
    g->done |= (uint64_t)1 << u;
    take_cities(g, t->u_side[u], cbit(t, h));
}

static void setup_apply(const Tables *t, G *g, W *w, const Act *a) {
    int side = t->ph_side[g->phase];
    if (a->kind == A_STD) {
        for (int i = 0; i < t->nstd[side]; i++)
            setup_place(t, g, t->std_u[side][i], t->std_h[side][i]);
    } else {
        setup_place(t, g, a->a, a->b);
    }
    for (int i = 0; i < t->nsetup[side]; i++)
        if (g->at[t->setup[side][i]] < 0)
            return;
    end_phase(t, g, w);
}

/* ---------------------------------------------------------------------------------------- */
/* replacement (replacement_phase.py)                                                       */

static BS comm_mask(const Tables *t, const G *g, int side) {
    int enemy = 1 - side;
    BS blocked = bs_or(g->occ[enemy], expand(t, g->occ[enemy]));
    BS passable = bs_andn(t->valid, blocked);
    BS edge = t->edge[side];
    BS region = bs_and(edge, passable), frontier = region;
    while (bs_any(frontier)) {
        frontier = bs_andn(bs_and(expand(t, frontier), passable), region);
        region = bs_or(region, frontier);
    }
    return bs_or(bs_or(region, expand(t, region)), edge);
}

static BS placement_mask(const Tables *t, const G *g, BS comm_ex) {
    int side = t->ph_side[g->phase];
    BS empty = bs_andn(t->valid, bs_or(g->occ[0], g->occ[1]));
    BS cities = controlled_city_mask(t, g, side);
    return bs_and(empty, bs_or(t->edge[side], bs_and(cities, comm_ex)));
}

static void replacement_legal(const Tables *t, const G *g, W *w) {
    int side = t->ph_side[g->phase];
    BS comm_ex = comm_mask(t, g, side);
    if (side == 1)
        comm_ex = bs_or(comm_ex, t->moscow);
    int due = reinforcement_due(t, g);
    BS places = placement_mask(t, g, comm_ex);
    if (due >= 0) {
        BS_FOR(places, h) { push_act(w, t->c_to + due * t->npad + t->pad[h], A_REINFORCE, due, h, 0); }
    }
    if (g->repl > 0) {
        for (int u = 0; u < t->nu; u++) {
            if (t->u_side[u] != side)
                continue;
            if (g->loc[u] < 0) {
                if (u != due && unit_available(t, g, u)) {
                    BS_FOR(places, h) { push_act(w, t->c_to + u * t->npad + t->pad[h], A_REBUILD, u, h, 0); }
                }
            } else if (g->steps[u] == 1 && !((g->rebuilt >> u) & 1) && bs_has(comm_ex, g->loc[u])) {
                push_act(w, t->c_restore + u, A_RESTORE, u, 0, 0);
            }
        }
    }
    if (due < 0 || !bs_any(places))
        push_act(w, t->c_end, A_END, 0, 0, 0);
}

static void replacement_apply(const Tables *t, G *g, W *w, const Act *a) {
    int side = t->ph_side[g->phase];
    int u = a->a, h = a->b;
    switch (a->kind) {
    case A_END:
        end_phase(t, g, w);
        return;
    case A_RESTORE:
        g->steps[u] = 2;
        g->repl -= 1;
        return;
    case A_REINFORCE:
        g->steps[u] = t->fs_full ? 2 : 1;
        g->arrived |= (uint64_t)1 << u;
        break;
    default: /* A_REBUILD */
        g->steps[u] = 1;
        g->repl -= 1;
        g->rebuilt |= (uint64_t)1 << u;
        if (u == t->fs_unit)
            g->arrived |= (uint64_t)1 << u;
        break;
    }
    put(t, g, u, h);
    take_cities(g, side, cbit(t, h));
}

/* ---------------------------------------------------------------------------------------- */
/* movement (movement_phase.py, mechanics/movement.py)                                      */

#define LAB_SIZE 16384
#define TODO_SIZE (1 << 17)
static uint32_t lab_key[LAB_SIZE];
static int8_t lab_val[LAB_SIZE];
static uint32_t lab_stamp[LAB_SIZE];
static uint32_t lab_gen = 0;
static int lab_list[LAB_SIZE];
static int lab_n;
static uint32_t todo_key[TODO_SIZE];
static int8_t todo_left[TODO_SIZE];
static uint32_t out_buf[LAB_SIZE];

/* slot of a label (hex | seen << 8): -1 if the table is full */
static int lab_slot(uint32_t key, int insert) {
    uint32_t i = (key * 2654435761u) & (LAB_SIZE - 1);
    for (int probe = 0; probe < LAB_SIZE; probe++) {
        if (lab_stamp[i] != lab_gen) {
            if (!insert)
                return -1;
            lab_stamp[i] = lab_gen;
            lab_key[i] = key;
            lab_val[i] = -1;
            lab_list[lab_n++] = (int)i;
            return (int)i;
        }
        if (lab_key[i] == key)
            return (int)i;
        i = (i + 1) & (LAB_SIZE - 1);
    }
    return -1;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* mechanics.movement.reach: every (hex, notable cities entered) a mover can end on, as
   distinct (dst | via << 8) entries, via = cities passed before the last hex. */
static int reach(const Tables *t, int start, int allowance, int rail, BS blocked, BS stop, BS notable,
                 uint32_t *out, int *nout) {
    lab_gen++;
    if (lab_gen == 0) {
        memset(lab_stamp, 0, sizeof(lab_stamp));
        lab_gen = 1;
    }
    lab_n = 0;
    int s0 = lab_slot((uint32_t)start, 1);
    lab_val[s0] = (int8_t)allowance;
    int ntodo = 0;
    todo_key[ntodo] = (uint32_t)start;
    todo_left[ntodo++] = (int8_t)allowance;
    while (ntodo) {
        ntodo--;
        uint32_t key = todo_key[ntodo];
        int left = todo_left[ntodo];
        int slot = lab_slot(key, 0);
        if (lab_val[slot] > left)
            continue;
        int h = (int)(key & 0xff);
        uint32_t seen = key >> 8;
        int nn = rail ? t->rail_n[h] : 6;
        for (int k = 0; k < nn; k++) {
            int n = rail ? t->rail_nb[h][k] : t->nbd[h][k];
            if (n < 0 || bs_has(blocked, n))
                continue;
            int c = rail ? t->rail_cost[n] : t->cost[n];
            if (c > left)
                continue;
            int rest = bs_has(stop, n) ? 0 : left - c;
            uint32_t nseen = seen | (bs_has(notable, n) ? cbit(t, n) : 0);
            uint32_t nkey = (uint32_t)n | (nseen << 8);
            int ns = lab_slot(nkey, 1);
            if (ns < 0)
                return -2;
            if (rest > lab_val[ns]) { /* a new label holds -1 */
                lab_val[ns] = (int8_t)rest;
                if (rest > 0) {
                    if (ntodo >= TODO_SIZE)
                        return -2;
                    todo_key[ntodo] = nkey;
                    todo_left[ntodo++] = (int8_t)rest;
                }
            }
        }
    }
    int n = 0;
    int any_via = 0;
    for (int i = 0; i < lab_n; i++) {
        uint32_t key = lab_key[lab_list[i]];
        if (key == (uint32_t)start)
            continue;
        int h = (int)(key & 0xff);
        uint32_t via = (key >> 8) & ~cbit(t, h);
        if (via)
            any_via = 1;
        out[n++] = (uint32_t)h | (via << 8);
    }
    if (any_via || bs_any(notable)) {
        qsort(out, (size_t)n, sizeof(uint32_t), cmp_u32);
        int m = 0;
        for (int i = 0; i < n; i++)
            if (m == 0 || out[m - 1] != out[i])
                out[m++] = out[i];
        n = m;
    }
    *nout = n;
    return 0;
}

static int via_code(const Tables *t, int u, uint32_t key) {
    int lo = t->via_start[u], hi = t->via_start[u + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->via_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->via_start[u + 1] && t->via_key[lo] == key)
        return t->via_code[lo];
    return -1;
}

/* movement_phase.options: all moves of unit u ignoring friendly units (cached for the phase) */
static int unit_moves(const Tables *t, const G *g, W *w, int u) {
    if ((w->mv_valid >> u) & 1)
        return 0;
    int side = t->ph_side[g->phase], enemy = 1 - side;
    BS eocc = g->occ[enemy];
    int start = g->loc[u];
    int rail = t->ph_movers[g->phase] == M_RAIL;
    int mud = is_mud(t, g->turn) && !rail;
    int n = 0;
    if (mud) {
        for (int d = 0; d < 6; d++) {
            int nb = t->nbd[start][d];
            if (nb >= 0 && !bs_has(eocc, nb))
                out_buf[n++] = (uint32_t)nb;
        }
    } else {
        BS ezoc = expand(t, eocc);
        BS notable = bs_andn(controlled_city_mask(t, g, enemy), eocc);
        if (!rail) /* mechanics.movement.reach_on_grid never counts the start hex as passed */
            bs_clr(&notable, start);
        if (reach(t, start, t->u_move[u], rail, eocc, ezoc, notable, out_buf, &n) < 0) {
            w->err = 2;
            return -1;
        }
    }
    if (w->mv_used + n > w->mv_cap) {
        int nc = w->mv_cap ? w->mv_cap : 1024;
        while (nc < w->mv_used + n)
            nc *= 2;
        uint32_t *e = PyMem_Realloc(w->mv_ent, (size_t)nc * sizeof(uint32_t));
        if (e)
            w->mv_ent = e;
        int32_t *c = PyMem_Realloc(w->mv_code, (size_t)nc * sizeof(int32_t));
        if (c)
            w->mv_code = c;
        if (!e || !c) {
            w->err = 1;
            return -1;
        }
        w->mv_cap = nc;
    }
    int off = w->mv_used;
    BS dm = bs_zero();
    for (int i = 0; i < n; i++) {
        uint32_t e = out_buf[i];
        int dst = (int)(e & 0xff);
        int code;
        if (e >> 8) {
            code = via_code(t, u, e);
            if (code < 0) {
                w->err = 3;
                return -1;
            }
        } else {
            code = t->c_to + u * t->npad + t->pad[dst];
        }
        w->mv_ent[off + i] = e;
        w->mv_code[off + i] = code;
        bs_set(&dm, dst);
    }
    bs_clr(&dm, start);
    w->dmask[u] = dm;
    w->mv_off[u] = off;
    w->mv_n[u] = n;
    w->mv_used += n;
    w->mv_valid |= (uint64_t)1 << u;
    return 0;
}

static uint64_t movable_units(const Tables *t, const G *g) {
    int ph = g->phase, side = t->ph_side[ph], movers = t->ph_movers[ph];
    uint64_t out = 0;
    for (int u = 0; u < t->nu; u++) {
        if (t->u_side[u] != side)
            continue;
        int h = g->loc[u];
        if (h < 0)
            continue;
        if (movers == M_PANZER && !t->u_panzer[u])
            continue;
        if (movers == M_RAIL && !bs_has(t->rail_mask, h))
            continue;
        out |= (uint64_t)1 << u;
    }
    return out & ~g->done;
}

static uint64_t ancestors(const uint64_t *edges, uint64_t targets) {
    uint64_t seen = targets, frontier = targets;
    while (frontier) {
        uint64_t next = 0;
        for (uint64_t x = frontier; x; x &= x - 1)
            next |= edges[__builtin_ctzll(x)];
        frontier = next & ~seen;
        seen |= frontier;
    }
    return seen;
}

static void movement_legal(const Tables *t, const G *g, W *w) {
    uint64_t everyone = movable_units(t, g);
    uint64_t movers = g->stack >= 0 ? ((uint64_t)1 << g->stack) : everyone;
    BS occupied = bs_or(g->occ[0], g->occ[1]);
    int have_direct = 0, have_chains = 0;
    BS direct = bs_zero();
    uint64_t edges[MAXU];
    uint64_t good = 0;
    for (uint64_t mx = movers; mx; mx &= mx - 1) {
        int u = __builtin_ctzll(mx);
        if (unit_moves(t, g, w, u) < 0)
            return;
        BS hit = bs_and(w->dmask[u], occupied);
        BS bad;
        if (!bs_any(hit) && g->stack != u) {
            bad = bs_zero();
        } else {
            if (!have_direct) {
                have_direct = 1;
                int stuck = 0;
                BS freem = bs_andn(t->valid, occupied);
                for (uint64_t ex = everyone; ex; ex &= ex - 1) {
                    int z = __builtin_ctzll(ex);
                    if (unit_moves(t, g, w, z) < 0)
                        return;
                    if (bs_any(bs_and(w->dmask[z], freem)))
                        bs_set(&direct, g->loc[z]);
                    else
                        stuck = 1;
                }
                if (g->stack >= 0 && ((everyone >> g->stack) & 1))
                    bs_clr(&direct, g->loc[g->stack]);
                if (stuck) {
                    have_chains = 1;
                    uint64_t units = everyone;
                    if (g->stack >= 0)
                        units &= ~((uint64_t)1 << g->stack);
                    BS unmoved = bs_zero();
                    for (uint64_t x = units; x; x &= x - 1)
                        bs_set(&unmoved, g->loc[__builtin_ctzll(x)]);
                    memset(edges, 0, sizeof(edges));
                    uint64_t terminal = 0;
                    for (uint64_t x = units; x; x &= x - 1) {
                        int v = __builtin_ctzll(x);
                        BS dm = w->dmask[v];
                        if (bs_any(bs_andn(dm, occupied)))
                            terminal |= (uint64_t)1 << v;
                        BS h2 = bs_and(dm, unmoved);
                        BS_FOR(h2, hh) {
                            int owner = -1;
                            for (uint64_t y = units; y; y &= y - 1) {
                                int q = __builtin_ctzll(y);
                                if (g->loc[q] == hh)
                                    owner = q;
                            }
                            if (owner >= 0)
                                edges[owner] |= (uint64_t)1 << v;
                        }
                    }
                    good = ancestors(edges, terminal);
                }
            }
            bad = bs_andn(hit, direct);
            if (bs_any(bad) && have_chains) {
                BS scan = bad;
                BS_FOR(scan, h) {
                    int z = g->at[h];
                    if (z == g->stack || z < 0 || !((everyone >> z) & 1))
                        continue;
                    int ok = (int)((good >> z) & 1);
                    if (!ok && g->stack < 0)
                        ok = (int)((ancestors(edges, (uint64_t)1 << u) >> z) & 1);
                    if (ok)
                        bs_clr(&bad, h);
                }
            }
            if (g->stack == u)
                bs_set(&bad, g->loc[u]);
        }
        int off = w->mv_off[u], n = w->mv_n[u];
        for (int i = 0; i < n; i++) {
            uint32_t e = w->mv_ent[off + i];
            int dst = (int)(e & 0xff);
            if (bs_has(bad, dst))
                continue;
            if (push_act(w, w->mv_code[off + i], A_MOVE, u, dst, (int)(e >> 8)) < 0)
                return;
        }
    }
    if (g->stack < 0)
        push_act(w, t->c_end, A_END, 0, 0, 0);
}

static void movement_apply(const Tables *t, G *g, W *w, const Act *a) {
    if (a->kind == A_END) {
        end_phase(t, g, w);
        return;
    }
    int u = a->a, dst = a->b;
    uint32_t via = (uint32_t)a->c;
    int side = t->u_side[u];
    int start = g->loc[u];
    int z = dst != start ? g->at[dst] : -1;
    if (dst != start) {
        if (g->stack == u) {
            g->stack = -1;
        } else {
            g->at[start] = -1;
            bs_clr(&g->occ[side], start);
        }
        g->loc[u] = (int16_t)dst;
        g->at[dst] = (int16_t)u;
        bs_set(&g->occ[side], dst);
        if (z >= 0)
            g->stack = z;
    }
    g->done |= (uint64_t)1 << u;
    if (take_cities(g, side, via | cbit(t, dst))) {
        w->mv_valid = 0; /* the cities a move can take changed: work every unit's moves out again */
        w->mv_used = 0;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* combat (combat_phase.py, mechanics/retreat.py)                                           */

static int rp_push(W *w, const int16_t *path, int len) {
    if (grow((void **)&w->rp, &w->rp_cap, w->rp_used + len + 1, sizeof(int16_t)) < 0) {
        w->err = 1;
        return -1;
    }
    w->rp[w->rp_used] = (int16_t)len;
    memcpy(w->rp + w->rp_used + 1, path, (size_t)len * sizeof(int16_t));
    w->rp_used += len + 1;
    return 0;
}

typedef struct {
    const Tables *t;
    W *w;
    BS forbidden, occupied;
    int origin, count;
} RCtx;

static void rpaths(RCtx *c, int16_t *path, int len, int here) {
    const Tables *t = c->t;
    if (len >= MAXPATH - 1) {
        c->w->err = 2;
        return;
    }
    for (int d = 0; d < 6 && !c->w->err; d++) {
        int n = t->nbd[here][d];
        if (n < 0 || bs_has(c->forbidden, n) || t->dist[c->origin * t->size + n] != len + 1)
            continue;
        path[len] = (int16_t)n;
        if ((len + 1) % 2 == 0) {
            if (bs_has(c->occupied, n))
                rpaths(c, path, len + 1, n);
            else {
                rp_push(c->w, path, len + 1);
                c->count++;
            }
        } else {
            rpaths(c, path, len + 1, n);
        }
    }
}

static void rpaths_beyond(RCtx *c, int16_t *path, int len, int here, int anchor, int step) {
    const Tables *t = c->t;
    if (len >= MAXPATH - 1) {
        c->w->err = 2;
        return;
    }
    int floor_ = t->dist[c->origin * t->size + anchor];
    for (int d = 0; d < 6 && !c->w->err; d++) {
        int n = t->nbd[here][d];
        if (n < 0 || bs_has(c->forbidden, n) || t->dist[anchor * t->size + n] != step + 1)
            continue;
        int inpath = 0;
        for (int i = 0; i < len; i++)
            if (path[i] == n)
                inpath = 1;
        if (inpath)
            continue;
        if (t->dist[c->origin * t->size + n] < floor_ || n == c->origin)
            continue;
        path[len] = (int16_t)n;
        if (step + 1 < 2)
            rpaths_beyond(c, path, len + 1, n, anchor, step + 1);
        else if (bs_has(c->occupied, n))
            rpaths_beyond(c, path, len + 1, n, n, 0);
        else {
            rp_push(c->w, path, len + 1);
            c->count++;
        }
    }
}

/* retreat_paths_of: fills w->rp; returns the number of paths */
static int retreat_paths_of(const Tables *t, const G *g, W *w, int defender) {
    int side = t->u_side[defender], enemy = 1 - side;
    RCtx c;
    c.t = t;
    c.w = w;
    c.forbidden = bs_or(g->occ[enemy], expand(t, g->occ[enemy]));
    c.occupied = g->occ[side];
    bs_clr(&c.occupied, g->loc[defender]);
    c.origin = g->loc[defender];
    c.count = 0;
    w->rp_used = 0;
    int16_t path[MAXPATH];
    if (t->retreat_beyond)
        rpaths_beyond(&c, path, 0, c.origin, c.origin, 0);
    else
        rpaths(&c, path, 0, c.origin);
    return c.count;
}

static const Tables *sort_t;
static const int16_t *sort_rp;
static int cmp_path(const void *a, const void *b) {
    const int16_t *p = sort_rp + *(const int *)a, *q = sort_rp + *(const int *)b;
    int lp = p[0], lq = q[0];
    for (int i = 0; i < lp && i < lq; i++) {
        int x = sort_t->pad[p[1 + i]], y = sort_t->pad[q[1 + i]];
        if (x != y)
            return x < y ? -1 : 1;
    }
    return lp < lq ? -1 : lp > lq;
}

static int short_shape(const Tables *t, int origin, int p1, int p2) {
    int d1 = -1, d2 = -1;
    for (int d = 0; d < 6; d++)
        if (t->nbd[origin][d] == p1)
            d1 = d;
    if (d1 < 0)
        return -1;
    for (int d = 0; d < 6; d++)
        if (t->nbd[p1][d] == p2)
            d2 = d;
    if (d2 < 0)
        return -1;
    int turn = ((d2 - d1 + 1) % 6 + 6) % 6;
    return turn < 3 ? d1 * 3 + turn : -1;
}

static void combat_legal(const Tables *t, const G *g, W *w) {
    int side = t->ph_side[g->phase];
    switch (g->cstep) {
    case DECLARE: {
        BS eocc = g->occ[1 - side];
        for (int u = 0; u < t->nu; u++) {
            int h = g->loc[u];
            if (t->u_side[u] != side || h < 0 || ((g->done >> u) & 1))
                continue;
            for (int d = 0; d < 6; d++) {
                int n = t->nbd[h][d];
                if (n >= 0 && bs_has(eocc, n))
                    push_act(w, t->c_attack + u * 6 + d, A_ATTACK, u, n, 0);
            }
        }
        push_act(w, t->c_end, A_END, 0, 0, 0);
        return;
    }
    case CHOOSE:
        for (int i = 0; i < g->nb; i++) {
            int h = g->loc[g->bat[i].def];
            push_act(w, t->c_resolve + t->pad[h], A_RESOLVE, i, h, 0);
        }
        return;
    case ROLL:
        for (int d = 1; d <= 6; d++)
            push_act(w, d - 1, A_ROLL, d, 0, 0);
        return;
    case STAND:
        push_act(w, t->c_stand, A_STAND, 1, 0, 0);
        push_act(w, t->c_stand + 1, A_STAND, 0, 0, 0);
        return;
    case LOSS:
        for (int i = 0; i < g->cur.n; i++) {
            int a = g->cur.att[i];
            if (g->loc[a] >= 0)
                push_act(w, t->c_lose + a, A_LOSE, a, 0, 0);
        }
        return;
    case RETREAT: {
        int n = retreat_paths_of(t, g, w, g->cur.def);
        if (w->err)
            return;
        int *longs = PyMem_Malloc(sizeof(int) * (size_t)(n + 1));
        if (!longs) {
            w->err = 1;
            return;
        }
        int nl = 0, off = 0;
        for (int i = 0; i < n; i++) {
            int len = w->rp[off];
            if (len == 2) {
                int shape = short_shape(t, g->cur_hex, w->rp[off + 1], w->rp[off + 2]);
                if (shape < 0) {
                    w->err = 3;
                    break;
                }
                push_act(w, t->c_rshort + shape, A_RETREAT, 0, 0, off);
            } else {
                longs[nl++] = off;
            }
            off += len + 1;
        }
        if (nl > t->n_rlong)
            w->err = 3;
        if (!w->err && nl) {
            sort_t = t;
            sort_rp = w->rp;
            qsort(longs, (size_t)nl, sizeof(int), cmp_path);
            for (int i = 0; i < nl; i++)
                push_act(w, t->c_rlong + i, A_RETREAT, 0, 0, longs[i]);
        }
        PyMem_Free(longs);
        return;
    }
    case ADVANCE:
        for (int i = 0; i < g->cur.n; i++) {
            int a = g->cur.att[i];
            if (g->loc[a] >= 0)
                push_act(w, t->c_advance + a, A_ADVANCE, a, 0, 0);
        }
        push_act(w, t->c_advnone, A_ADVANCE, -1, 0, 0);
        return;
    }
}

static int any_attacker_on_map(const G *g) {
    for (int i = 0; i < g->cur.n; i++)
        if (g->loc[g->cur.att[i]] >= 0)
            return 1;
    return 0;
}

static void finish_battle(const Tables *t, G *g, W *w) {
    int d = g->cur.def, m = 0;
    for (int i = 0; i < g->nb; i++)
        if (g->bat[i].def != d)
            g->bat[m++] = g->bat[i];
    g->nb = m;
    g->has_cur = 0;
    memset(&g->cur, 0, sizeof(g->cur));
    g->cur_hex = g->cur_col = g->cur_res = g->cur_owed = 0;
    if (g->nb)
        g->cstep = CHOOSE;
    else
        end_phase(t, g, w);
}

static void to_advance(const Tables *t, G *g, W *w) {
    if (g->at[g->cur_hex] < 0 && any_attacker_on_map(g))
        g->cstep = ADVANCE;
    else
        finish_battle(t, g, w);
}

static void to_retreat(const Tables *t, G *g, W *w) {
    int n = retreat_paths_of(t, g, w, g->cur.def);
    if (w->err)
        return;
    if (!n) {
        lift(t, g, g->cur.def);
        to_advance(t, g, w);
        return;
    }
    g->cstep = RETREAT;
}

static int odds_final(const Tables *t, const G *g, const Bat *b) {
    int mud = is_mud(t, g->turn);
    int halves = 0, n_on = 0, all_river = 1;
    int d = b->def, h = g->loc[d];
    for (int i = 0; i < b->n; i++) {
        int a = b->att[i];
        if (g->loc[a] < 0)
            continue;
        n_on++;
        int st = strength(t, g, a);
        halves += (mud && (t->mud_all || t->u_panzer[a])) ? st : 2 * st;
        if (!bs_has(t->river[h], g->loc[a]))
            all_river = 0;
    }
    int dfs = strength(t, g, d);
    int col = dfs <= 0 ? 6 : halves / (2 * dfs);
    if (col > 6)
        col = 6;
    int shifts = t->shift[t->u_side[d]][h];
    if (n_on && all_river)
        shifts++;
    return col - shifts;
}

static void combat_apply(const Tables *t, G *g, W *w, const Act *a) {
    switch (g->cstep) {
    case DECLARE: {
        if (a->kind == A_END) {
            if (!g->nb)
                end_phase(t, g, w);
            else
                g->cstep = CHOOSE;
            return;
        }
        int u = a->a, d = g->at[a->b];
        g->done |= (uint64_t)1 << u;
        for (int i = 0; i < g->nb; i++) {
            if (g->bat[i].def == d) {
                Bat *b = &g->bat[i];
                if (b->n >= MAXA) {
                    w->err = 2;
                    return;
                }
                b->att[b->n++] = (int8_t)u;
                return;
            }
        }
        if (g->nb >= MAXB) {
            w->err = 2;
            return;
        }
        Bat *b = &g->bat[g->nb++];
        memset(b, 0, sizeof(*b));
        b->def = (int8_t)d;
        b->n = 1;
        b->att[0] = (int8_t)u;
        return;
    }
    case CHOOSE: {
        Bat b = g->bat[a->a];
        g->has_cur = 1;
        g->cur = b;
        g->cur_hex = a->b;
        g->cur_col = odds_final(t, g, &b);
        g->cur_res = -1;
        g->cur_owed = 0;
        if (g->cur_col < 1)
            finish_battle(t, g, w);
        else
            g->cstep = ROLL;
        return;
    }
    case ROLL: {
        int res = t->crt[a->a][g->cur_col];
        int d = g->cur.def;
        g->cur_res = res;
        switch (res) {
        case R_NE:
            finish_battle(t, g, w);
            break;
        case R_DE:
            lift(t, g, d);
            to_advance(t, g, w);
            break;
        case R_DR:
            if (bs_has(t->stand_fast, g->cur_hex))
                g->cstep = STAND;
            else
                to_retreat(t, g, w);
            break;
        case R_DRL:
            lose_step(t, g, d);
            if (g->loc[d] >= 0)
                to_retreat(t, g, w);
            else
                to_advance(t, g, w);
            break;
        case R_AL:
            g->cur_owed = -1;
            g->cstep = LOSS;
            break;
        default: /* EX */
            g->cur_owed = lose_step(t, g, d);
            g->cstep = LOSS;
            break;
        }
        return;
    }
    case STAND:
        if (a->a) {
            lose_step(t, g, g->cur.def);
            if (g->loc[g->cur.def] >= 0)
                finish_battle(t, g, w);
            else
                to_advance(t, g, w);
        } else {
            to_retreat(t, g, w);
        }
        return;
    case LOSS: {
        int lost = lose_step(t, g, a->a);
        if (g->cur_owed == -1) {
            finish_battle(t, g, w);
            return;
        }
        int owed = g->cur_owed - lost;
        g->cur_owed = owed > 0 ? owed : 0;
        if (owed > 0 && any_attacker_on_map(g))
            return;
        if (g->loc[g->cur.def] >= 0)
            to_retreat(t, g, w);
        else
            to_advance(t, g, w);
        return;
    }
    case RETREAT: {
        const int16_t *p = w->rp + a->c;
        int len = p[0], d = g->cur.def;
        int16_t path[MAXPATH];
        memcpy(path, p + 1, (size_t)len * sizeof(int16_t));
        relocate(t, g, d, path[len - 1]);
        uint32_t cities = 0;
        for (int i = 0; i < len; i++)
            cities |= cbit(t, path[i]);
        take_cities(g, t->u_side[d], cities);
        to_advance(t, g, w);
        return;
    }
    case ADVANCE:
        if (a->a >= 0) {
            relocate(t, g, a->a, g->cur_hex);
            take_cities(g, t->u_side[a->a], cbit(t, g->cur_hex));
        }
        finish_battle(t, g, w);
        return;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* the driver: legal list, apply, forced actions (games/driver.py)                          */

static void gen_legal(const Tables *t, const G *g, W *w) {
    w->nacts = 0;
    w->legal_valid = 1;
    if (g->result >= 0)
        return;
    switch (t->ph_kind[g->phase]) {
    case K_SETUP:
        setup_legal(t, g, w);
        break;
    case K_REPLACEMENT:
        replacement_legal(t, g, w);
        break;
    case K_MOVEMENT:
        movement_legal(t, g, w);
        break;
    default:
        combat_legal(t, g, w);
        break;
    }
    if (w->err)
        w->legal_valid = 0;
}

static void apply_act(const Tables *t, G *g, W *w, Act a) {
    w->legal_valid = 0;
    switch (t->ph_kind[g->phase]) {
    case K_SETUP:
        setup_apply(t, g, w, &a);
        break;
    case K_REPLACEMENT:
        replacement_apply(t, g, w, &a);
        break;
    case K_MOVEMENT:
        movement_apply(t, g, w, &a);
        break;
    default:
        combat_apply(t, g, w, &a);
        break;
    }
}

/* play every decision with exactly one answer; leaves the legal list of the position made */
static void play_forced(const Tables *t, G *g, W *w) {
    for (int i = 0; i < 10000; i++) {
        gen_legal(t, g, w);
        if (w->err)
            return;
        if (g->result >= 0 || is_chance(t, g) || w->nacts != 1)
            return;
        apply_act(t, g, w, w->acts[0]);
        if (w->err)
            return;
    }
    w->err = 2;
}

/* the index of a code in the (valid) legal list, or -1 */
static int find_code(const W *w, int code) {
    for (int i = 0; i < w->nacts; i++)
        if (w->acts[i].code == code)
            return i;
    return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* random numbers: splitmix64                                                               */

static inline uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline int rng_below(uint64_t *s, int n) { return (int)(((rng_next(s) >> 32) * (uint64_t)n) >> 32); }

/* random play to the end; returns the number of actions chosen, -1 on error */
static long playout(const Tables *t, G *g, W *w, uint64_t *seed) {
    long n = 0;
    if (!w->legal_valid)
        gen_legal(t, g, w);
    while (g->result < 0) {
        if (w->err)
            return -1;
        if (w->nacts <= 0) {
            w->err = 2;
            return -1;
        }
        Act a = w->acts[rng_below(seed, w->nacts)];
        apply_act(t, g, w, a);
        if (w->err)
            return -1;
        play_forced(t, g, w);
        n++;
    }
    return w->err ? -1 : n;
}

/* ---------------------------------------------------------------------------------------- */
/* Python: Tables                                                                           */

static int get_long_list(PyObject *d, const char *key, long *out, Py_ssize_t lo, Py_ssize_t hi,
                         Py_ssize_t *n_out) {
    PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "tables: missing %s", key);
        return -1;
    }
    PyObject *seq = PySequence_Fast(v, "tables: a list of ints is expected");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < lo || n > hi) {
        Py_DECREF(seq);
        PyErr_Format(CoreError, "tables: %s has %zd entries (expected %zd..%zd)", key, n, lo, hi);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        long x = PyLong_AsLong(item);
        if (x == -1 && PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_OverflowError)) {
            /* a 64-bit word of a hex set */
            PyErr_Clear();
            x = (long)PyLong_AsUnsignedLong(item);
        }
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (out)
            out[i] = x;
    }
    Py_DECREF(seq);
    if (n_out)
        *n_out = n;
    return 0;
}

static int get_int(PyObject *d, const char *key, int *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "tables: missing %s", key);
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = (int)x;
    return 0;
}

static int get_bs(PyObject *d, const char *key, BS *out) {
    long w[3];
    if (get_long_list(d, key, w, 3, 3, NULL) < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        out->w[i] = (uint64_t)(unsigned long)w[i];
    return 0;
}

static void tables_dealloc(TablesObject *self) {
    PyMem_Free(self->t.obs_template);
    PyMem_Free(self->t.dist);
    PyMem_Free(self->t.via_key);
    PyMem_Free(self->t.via_code);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define RANGE_CHECK(cond, what)                                                                          \
    if (!(cond)) {                                                                                        \
        PyErr_SetString(CoreError, "tables: " what);                                                      \
        goto fail;                                                                                        \
    }

static int tables_init(TablesObject *self, PyObject *args, PyObject *kw) {
    PyObject *d;
    if (kw && PyDict_Size(kw)) {
        PyErr_SetString(PyExc_TypeError, "Tables takes one dict");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &d))
        return -1;
    if (self->t.size > 0) { /* cores may hold these tables: they never change */
        PyErr_SetString(PyExc_TypeError, "a Tables object cannot be initialised twice");
        return -1;
    }
    Tables *t = &self->t;
    PyMem_Free(t->obs_template);
    PyMem_Free(t->dist);
    PyMem_Free(t->via_key);
    PyMem_Free(t->via_code);
    memset(t, 0, sizeof(*t));
    long *buf = PyMem_Malloc(sizeof(long) * (MAXH * MAXH + 8));
    long *buf2 = NULL;
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n;
    if (get_int(d, "size", &t->size) < 0 || get_int(d, "stride", &t->stride) < 0)
        goto fail;
    RANGE_CHECK(t->size > 0 && t->size <= MAXH, "size out of range");
    RANGE_CHECK(t->stride >= 2 && t->stride < 60, "stride out of range");
    if (get_bs(d, "valid", &t->valid) < 0 || get_bs(d, "low", &t->low) < 0 || get_bs(d, "high", &t->high) < 0)
        goto fail;
    int S = t->size;
    if (get_long_list(d, "nbd", buf, S * 6, S * 6, NULL) < 0)
        goto fail;
    for (int i = 0; i < S * 6; i++) {
        RANGE_CHECK(buf[i] >= -1 && buf[i] < S, "nbd out of range");
        t->nbd[i / 6][i % 6] = (int16_t)buf[i];
    }
    t->dist = PyMem_Malloc((size_t)S * (size_t)S);
    if (!t->dist) {
        PyErr_NoMemory();
        goto fail;
    }
    if (get_long_list(d, "dist", buf, (Py_ssize_t)S * S, (Py_ssize_t)S * S, NULL) < 0)
        goto fail;
    for (int i = 0; i < S * S; i++) {
        RANGE_CHECK(buf[i] >= 0 && buf[i] < 255, "dist out of range");
        t->dist[i] = (uint8_t)buf[i];
    }
    if (get_long_list(d, "pad", buf, S, S, NULL) < 0)
        goto fail;
    for (int i = 0; i < S; i++)
        t->pad[i] = (int16_t)buf[i];
    if (get_long_list(d, "cost", buf, S, S, NULL) < 0)
        goto fail;
    for (int i = 0; i < S; i++) {
        RANGE_CHECK(buf[i] >= 1 && buf[i] < 100, "cost out of range");
        t->cost[i] = (int8_t)buf[i];
    }
    if (get_long_list(d, "rail_cost", buf, S, S, NULL) < 0)
        goto fail;
    for (int i = 0; i < S; i++) {
        RANGE_CHECK(buf[i] >= 1 && buf[i] < 100, "rail cost out of range");
        t->rail_cost[i] = (int8_t)buf[i];
    }
    if (get_long_list(d, "rail_nb", buf, S * 6, S * 6, NULL) < 0)
        goto fail;
    for (int i = 0; i < S; i++) {
        t->rail_n[i] = 0;
        for (int k = 0; k < 6; k++) {
            long x = buf[i * 6 + k];
            RANGE_CHECK(x >= -1 && x < S, "rail_nb out of range");
            if (x >= 0)
                t->rail_nb[i][t->rail_n[i]++] = (int16_t)x;
        }
    }
    if (get_bs(d, "rail_mask", &t->rail_mask) < 0)
        goto fail;
    if (get_long_list(d, "city_hex", buf, 0, MAXC, &n) < 0)
        goto fail;
    t->ncity = (int)n;
    for (int i = 0; i < S; i++)
        t->city_at[i] = -1;
    for (int i = 0; i < t->ncity; i++) {
        RANGE_CHECK(buf[i] >= 0 && buf[i] < S, "city hex out of range");
        t->city_hex[i] = (int)buf[i];
        t->city_at[buf[i]] = (int8_t)i;
    }
    int c0;
    if (get_int(d, "control0", &c0) < 0)
        goto fail;
    t->control0 = (uint32_t)c0;
    if (get_bs(d, "moscow", &t->moscow) < 0 || get_bs(d, "edge_german", &t->edge[0]) < 0 ||
        get_bs(d, "edge_soviet", &t->edge[1]) < 0 || get_bs(d, "stand_fast", &t->stand_fast) < 0)
        goto fail;
    static const char *setup_keys[2] = {"setup_german", "setup_soviet"};
    static const char *std_keys[2] = {"std_german", "std_soviet"};
    for (int side = 0; side < 2; side++) {
        if (get_long_list(d, setup_keys[side], buf, 0, MAXH, &n) < 0)
            goto fail;
        t->nsetup[side] = (int)n;
        for (int i = 0; i < n; i++) {
            RANGE_CHECK(buf[i] >= 0 && buf[i] < S, "set-up hex out of range");
            t->setup[side][i] = (int)buf[i];
        }
        if (get_long_list(d, std_keys[side], buf, 0, 2 * MAXU, &n) < 0)
            goto fail;
        RANGE_CHECK(n % 2 == 0, "standard set-up must be pairs");
        t->nstd[side] = (int)(n / 2);
        for (int i = 0; i < n / 2; i++) {
            t->std_u[side][i] = (int)buf[2 * i];
            t->std_h[side][i] = (int)buf[2 * i + 1];
            RANGE_CHECK(buf[2 * i + 1] >= 0 && buf[2 * i + 1] < S, "standard set-up hex out of range");
        }
    }
    static const char *ukeys[5] = {"u_side", "u_panzer", "u_full", "u_half", "u_move"};
    int *uarr[5] = {t->u_side, t->u_panzer, t->u_full, t->u_half, t->u_move};
    for (int k = 0; k < 5; k++) {
        if (get_long_list(d, ukeys[k], buf, 1, MAXU, &n) < 0)
            goto fail;
        if (k == 0)
            t->nu = (int)n;
        RANGE_CHECK(n == t->nu, "unit lists differ in length");
        for (int i = 0; i < n; i++)
            uarr[k][i] = (int)buf[i];
    }
    for (int u = 0; u < t->nu; u++) {
        RANGE_CHECK(t->u_side[u] == 0 || t->u_side[u] == 1, "unit side");
        RANGE_CHECK(t->u_move[u] >= 1 && t->u_move[u] < 100, "unit allowance");
    }
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < t->nstd[side]; i++)
            RANGE_CHECK(t->std_u[side][i] >= 0 && t->std_u[side][i] < t->nu, "standard set-up unit");
    if (get_long_list(d, "shift", buf, 2 * S, 2 * S, NULL) < 0)
        goto fail;
    for (int i = 0; i < 2 * S; i++)
        t->shift[i / S][i % S] = (int8_t)buf[i];
    if (get_long_list(d, "river", buf, 3 * S, 3 * S, NULL) < 0)
        goto fail;
    for (int i = 0; i < S; i++)
        for (int k = 0; k < 3; k++)
            t->river[i].w[k] = (uint64_t)(unsigned long)buf[3 * i + k];
    if (get_long_list(d, "crt", buf, 49, 49, NULL) < 0)
        goto fail;
    for (int i = 0; i < 49; i++) {
        RANGE_CHECK(buf[i] >= 0 && buf[i] <= R_EX, "CRT result");
        t->crt[i / 7][i % 7] = (int)buf[i];
    }
    static const char *pkeys[3] = {"ph_kind", "ph_side", "ph_movers"};
    int *parr[3] = {t->ph_kind, t->ph_side, t->ph_movers};
    for (int k = 0; k < 3; k++) {
        if (get_long_list(d, pkeys[k], buf, 1, MAXPH, &n) < 0)
            goto fail;
        if (k == 0)
            t->nph = (int)n;
        RANGE_CHECK(n == t->nph, "phase lists differ in length");
        for (int i = 0; i < n; i++) {
            RANGE_CHECK(buf[i] >= 0 && buf[i] <= 3, "phase field");
            parr[k][i] = (int)buf[i];
        }
    }
    for (int i = 0; i < t->nph; i++)
        RANGE_CHECK(t->ph_side[i] <= 1 && t->ph_movers[i] <= 2, "phase side or movers");
    if (get_int(d, "first_turn_phase", &t->first_turn_phase) < 0 || get_int(d, "last_turn", &t->last_turn) < 0)
        goto fail;
    RANGE_CHECK(t->last_turn >= 1 && t->last_turn < MAXT, "last turn");
    if (get_long_list(d, "skip1", buf, 0, MAXPH, &n) < 0)
        goto fail;
    for (int i = 0; i < n; i++)
        t->skip1 |= (uint32_t)1 << (buf[i] & 31);
    if (get_long_list(d, "mud", buf, 0, MAXT, &n) < 0)
        goto fail;
    for (int i = 0; i < n; i++)
        t->mud |= (uint64_t)1 << (buf[i] & 63);
    if (get_int(d, "mud_all", &t->mud_all) < 0)
        goto fail;
    if (get_long_list(d, "repl_german", buf, t->last_turn + 1, t->last_turn + 1, NULL) < 0)
        goto fail;
    for (int i = 0; i <= t->last_turn; i++)
        t->repl[0][i] = (int)buf[i];
    if (get_long_list(d, "repl_soviet", buf, t->last_turn + 1, t->last_turn + 1, NULL) < 0)
        goto fail;
    for (int i = 0; i <= t->last_turn; i++)
        t->repl[1][i] = (int)buf[i];
    if (get_int(d, "fs_unit", &t->fs_unit) < 0 || get_int(d, "fs_mode", &t->fs_mode) < 0 ||
        get_int(d, "fs_turn", &t->fs_turn) < 0 || get_int(d, "fs_full", &t->fs_full) < 0 ||
        get_int(d, "victory", &t->victory) < 0 || get_int(d, "retreat_beyond", &t->retreat_beyond) < 0)
        goto fail;
    RANGE_CHECK(t->fs_unit >= -1 && t->fs_unit < t->nu, "first shock unit");
    static const char *ckeys[14] = {"c_end",    "c_std",     "c_stand",   "c_advnone", "c_to",
                                    "c_attack", "c_resolve", "c_lose",    "c_advance", "c_restore",
                                    "c_rshort", "c_rlong",   "n_rlong",   "npad"};
    int *carr[14] = {&t->c_end,   &t->c_std,    &t->c_stand,   &t->c_advnone, &t->c_to,
                     &t->c_attack, &t->c_resolve, &t->c_lose,    &t->c_advance, &t->c_restore,
                     &t->c_rshort, &t->c_rlong,   &t->n_rlong,   &t->npad};
    for (int k = 0; k < 14; k++)
        if (get_int(d, ckeys[k], carr[k]) < 0)
            goto fail;
    for (int i = 0; i < S; i++)
        RANGE_CHECK(t->pad[i] >= -1 && t->pad[i] < t->npad, "pad out of range");
    if (get_long_list(d, "via_start", buf, t->nu + 1, t->nu + 1, NULL) < 0)
        goto fail;
    for (int i = 0; i <= t->nu; i++)
        t->via_start[i] = (int)buf[i];
    {
        Py_ssize_t nv;
        PyObject *vk = PyDict_GetItemString(d, "via_key");
        Py_ssize_t cap = vk ? PyObject_Length(vk) : -1;
        if (cap < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_KeyError, "tables: missing via_key");
            goto fail;
        }
        buf2 = PyMem_Malloc(sizeof(long) * (size_t)(cap + 1));
        t->via_key = PyMem_Malloc(sizeof(uint32_t) * (size_t)(cap + 1));
        t->via_code = PyMem_Malloc(sizeof(int32_t) * (size_t)(cap + 1));
        if (!buf2 || !t->via_key || !t->via_code) {
            PyErr_NoMemory();
            goto fail;
        }
        if (get_long_list(d, "via_key", buf2, cap, cap, &nv) < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < nv; i++)
            t->via_key[i] = (uint32_t)buf2[i];
        if (get_long_list(d, "via_code", buf2, cap, cap, NULL) < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < nv; i++)
            t->via_code[i] = (int32_t)buf2[i];
        RANGE_CHECK(t->via_start[0] == 0 && t->via_start[t->nu] == nv, "via_start");
        for (int u = 0; u < t->nu; u++)
            RANGE_CHECK(t->via_start[u] <= t->via_start[u + 1], "via_start order");
    }
    PyMem_Free(buf);
    PyMem_Free(buf2);
    return 0;
fail:
    PyMem_Free(buf);
    PyMem_Free(buf2);
    PyMem_Free(t->dist);
    PyMem_Free(t->via_key);
    PyMem_Free(t->via_code);
    memset(t, 0, sizeof(*t));
    return -1;
}

static int get_double(PyObject *d, const char *key, double *out) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v) {
        PyErr_Format(PyExc_KeyError, "observation layout: missing %s", key);
        return -1;
    }
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred())
        return -1;
    *out = x;
    return 0;
}

static int tables_ready(TablesObject *o);

static PyObject *tables_set_observation(TablesObject *self, PyObject *d) {
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "set_observation takes a dict");
        return NULL;
    }
    if (tables_ready(self) < 0)
        return NULL;
    Tables *t = &self->t;
    Tables n = *t; /* filled here, copied back when every field is good */
    static const char *ikeys[] = {"nch", "ch_unit", "ch_rows", "first_global", "g_turn", "g_phase", "g_step",
                                  "g_mud", "g_to_act", "g_observer", "g_repl", "g_vpg", "g_odds", "g_result",
                                  "g_owed", "g_due", "g_arrived", "g_off"};
    int *iptr[] = {&n.obs_nch, &n.ch_unit, &n.ch_rows, &n.first_global, &n.g_turn, &n.g_phase,
                   &n.g_step, &n.g_mud, &n.g_to_act, &n.g_observer, &n.g_repl, &n.g_vpg,
                   &n.g_odds, &n.g_result, &n.g_owed, &n.g_due, &n.g_arrived, &n.g_off};
    for (size_t k = 0; k < sizeof(ikeys) / sizeof(ikeys[0]); k++)
        if (get_int(d, ikeys[k], iptr[k]) < 0)
            return NULL;
    if (get_double(d, "vpg", &n.vpg) < 0 || get_double(d, "strength_scale", &n.strength_scale) < 0 ||
        get_double(d, "move_scale", &n.move_scale) < 0 || get_double(d, "repl_scale", &n.repl_scale) < 0 ||
        get_double(d, "odds_scale", &n.odds_scale) < 0)
        return NULL;
    long sc[6];
    if (get_long_list(d, "sides", sc, 6, 6, NULL) < 0)
        return NULL;
    int nglob = n.obs_nch - n.first_global;
    /* every channel the core writes must lie inside the tensor */
    int ok = n.obs_nch > 0 && n.obs_nch < 1000 && n.first_global > 0 && n.first_global <= n.obs_nch &&
             n.ch_unit >= 0 && n.ch_unit + 10 <= n.first_global && n.ch_rows >= 0 && n.ch_rows + 10 <= n.first_global &&
             n.g_turn >= 0 && n.g_turn + t->last_turn < nglob && n.g_phase >= 0 && n.g_phase + t->nph <= nglob &&
             n.g_step >= 0 && n.g_step + 7 <= nglob && n.g_mud >= 0 && n.g_mud < nglob && n.g_to_act >= 0 &&
             n.g_to_act + 2 <= nglob && n.g_observer >= 0 && n.g_observer + 2 <= nglob && n.g_repl >= 0 &&
             n.g_repl < nglob && n.g_vpg >= 0 && n.g_vpg < nglob && n.g_odds >= 0 && n.g_odds < nglob &&
             n.g_result >= 0 && n.g_result + 6 <= nglob && n.g_owed >= 0 && n.g_owed < nglob && n.g_due >= 0 &&
             n.g_due < nglob && n.g_arrived >= 0 && n.g_arrived < nglob && n.g_off >= 0 && n.g_off + 2 <= nglob &&
             n.strength_scale > 0 && n.move_scale > 0 && n.repl_scale > 0 && n.odds_scale > 0;
    for (int side = 0; side < 2 && ok; side++) {
        n.side_count[side] = (int)sc[side];
        n.side_lo[side] = (int)sc[2 + 2 * side];
        n.side_hi[side] = (int)sc[3 + 2 * side];
        ok = n.side_count[side] > 0 && n.side_lo[side] >= 0 && n.side_lo[side] <= n.side_hi[side] &&
             n.side_hi[side] <= t->nu;
    }
    for (int i = 0; i < t->size && ok; i++)
        if (bs_has(t->valid, i) && (t->pad[i] < 0 || t->pad[i] >= t->npad))
            ok = 0;
    if (!ok) {
        PyErr_SetString(CoreError, "observation layout out of range");
        return NULL;
    }
    PyObject *tmpl = PyDict_GetItemString(d, "template");
    if (!tmpl) {
        PyErr_SetString(PyExc_KeyError, "observation layout: missing template");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(tmpl, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    Py_ssize_t want = (Py_ssize_t)n.obs_nch * t->npad * (Py_ssize_t)sizeof(float);
    if (view.len != want) {
        PyBuffer_Release(&view);
        PyErr_Format(CoreError, "observation template: %zd bytes expected", want);
        return NULL;
    }
    float *copy = PyMem_Malloc((size_t)want);
    if (!copy) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(copy, view.buf, (size_t)want);
    PyBuffer_Release(&view);
    n.city_all = bs_zero();
    for (int i = 0; i < t->ncity; i++)
        bs_set(&n.city_all, t->city_hex[i]);
    PyMem_Free(t->obs_template);
    n.obs_template = copy;
    n.obs_ok = 1;
    *t = n;
    Py_RETURN_NONE;
}

static PyMethodDef tables_methods[] = {
    {"set_observation", (PyCFunction)tables_set_observation, METH_O,
     "Hand over the layout of the research environments' observation (see Core.observe)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TablesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "typhoon.games.bfm._bfmcore.Tables",
    .tp_basicsize = sizeof(TablesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The tables of one Battle for Moscow ruleset (made by typhoon.games.bfm.native).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)tables_init,
    .tp_dealloc = (destructor)tables_dealloc,
    .tp_methods = tables_methods,
};

static int tables_ready(TablesObject *o) {
    if (o->t.size <= 0) {
        PyErr_SetString(CoreError, "the Tables object was not initialised");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Python: Core (a position with its work space)                                            */

typedef struct {
    PyObject_HEAD TablesObject *tables;
    G g;
    W w;
} CoreObject;

static PyTypeObject CoreType;

static void core_dealloc(CoreObject *self) {
    w_free(&self->w);
    Py_XDECREF(self->tables);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int core_error(W *w) {
    if (!w->err)
        return 0;
    int e = w->err;
    w->err = 0;
    w->legal_valid = 0;
    if (e == 1)
        PyErr_NoMemory();
    else if (e == 3)
        PyErr_SetString(CoreError, "an action falls outside the action-code layout");
    else
        PyErr_SetString(CoreError, "a native table overflowed");
    return -1;
}

static int fill_ints(PyObject *seq_in, int16_t *out, Py_ssize_t n, long lo, long hi, const char *what) {
    PyObject *seq = PySequence_Fast(seq_in, "a list of ints is expected");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(CoreError, "%s: %zd entries expected", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (x < lo || x > hi) {
            Py_DECREF(seq);
            PyErr_Format(CoreError, "%s: value %ld out of range", what, x);
            return -1;
        }
        out[i] = (int16_t)x;
    }
    Py_DECREF(seq);
    return 0;
}

static int read_bat(PyObject *defender, PyObject *atts, Bat *b, int nu) {
    long d = PyLong_AsLong(defender);
    if (d == -1 && PyErr_Occurred())
        return -1;
    if (d < 0 || d >= nu) {
        PyErr_SetString(CoreError, "battle defender out of range");
        return -1;
    }
    PyObject *seq = PySequence_Fast(atts, "attackers must be a tuple of ints");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAXA) {
        Py_DECREF(seq);
        PyErr_SetString(CoreError, "a battle has 1 to 8 attackers");
        return -1;
    }
    memset(b, 0, sizeof(*b));
    b->def = (int8_t)d;
    b->n = (int8_t)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (a == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (a < 0 || a >= nu) {
            Py_DECREF(seq);
            PyErr_SetString(CoreError, "battle attacker out of range");
            return -1;
        }
        b->att[i] = (int8_t)a;
    }
    Py_DECREF(seq);
    return 0;
}

/* fields: (turn, phase, loc, steps, at, occ_g_words, occ_s_words, control, done, repl, rebuilt,
   arrived, stack, battles, cstep, cur, result) */
static int load_fields(const Tables *t, G *g, PyObject *f) {
    if (!PyTuple_Check(f) || PyTuple_GET_SIZE(f) != 17) {
        PyErr_SetString(PyExc_TypeError, "state fields: a 17-tuple is expected");
        return -1;
    }
    memset(g, 0, sizeof(*g));
    for (int u = 0; u < MAXU; u++)
        g->loc[u] = -1;
    for (int h = 0; h < MAXH; h++)
        g->at[h] = -1;
    long v;
#define GETL(i, dst, lo, hi)                                                                              \
    v = PyLong_AsLong(PyTuple_GET_ITEM(f, i));                                                            \
    if (v == -1 && PyErr_Occurred())                                                                      \
        return -1;                                                                                        \
    if (v < (lo) || v > (hi)) {                                                                           \
        PyErr_Format(CoreError, "state field %d out of range", i);                                        \
        return -1;                                                                                        \
    }                                                                                                     \
    dst = v;
    GETL(0, g->turn, 0, t->last_turn);
    GETL(1, g->phase, 0, t->nph - 1);
    if (fill_ints(PyTuple_GET_ITEM(f, 2), g->loc, t->nu, -1, t->size - 1, "loc") < 0 ||
        fill_ints(PyTuple_GET_ITEM(f, 3), g->steps, t->nu, 0, 2, "steps") < 0 ||
        fill_ints(PyTuple_GET_ITEM(f, 4), g->at, t->size, -1, t->nu - 1, "at") < 0)
        return -1;
    for (int side = 0; side < 2; side++) {
        PyObject *seq = PySequence_Fast(PyTuple_GET_ITEM(f, 5 + side), "occ: three words expected");
        if (!seq)
            return -1;
        if (PySequence_Fast_GET_SIZE(seq) != 3) {
            Py_DECREF(seq);
            PyErr_SetString(CoreError, "occ: three words expected");
            return -1;
        }
        for (int k = 0; k < 3; k++) {
            unsigned long long x = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
            if (x == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return -1;
            }
            g->occ[side].w[k] = x;
        }
        Py_DECREF(seq);
    }
    unsigned long long x;
#define GETU(i, dst)                                                                                      \
    x = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(f, i));                                                \
    if (x == (unsigned long long)-1 && PyErr_Occurred())                                                  \
        return -1;                                                                                        \
    dst = x;
    GETU(7, g->control);
    GETU(8, g->done);
    GETL(9, g->repl, -1000, 1000);
    GETU(10, g->rebuilt);
    GETU(11, g->arrived);
    GETL(12, g->stack, -1, t->nu - 1);
    PyObject *battles = PyTuple_GET_ITEM(f, 13);
    PyObject *bseq = PySequence_Fast(battles, "battles: a tuple expected");
    if (!bseq)
        return -1;
    Py_ssize_t nb = PySequence_Fast_GET_SIZE(bseq);
    if (nb > MAXB) {
        Py_DECREF(bseq);
        PyErr_SetString(CoreError, "too many battles");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nb; i++) {
        PyObject *b = PySequence_Fast_GET_ITEM(bseq, i);
        if (!PyTuple_Check(b) || PyTuple_GET_SIZE(b) != 2) {
            Py_DECREF(bseq);
            PyErr_SetString(PyExc_TypeError, "a battle is a (defender, attackers) tuple");
            return -1;
        }
        if (read_bat(PyTuple_GET_ITEM(b, 0), PyTuple_GET_ITEM(b, 1), &g->bat[i], t->nu) < 0) {
            Py_DECREF(bseq);
            return -1;
        }
    }
    Py_DECREF(bseq);
    g->nb = (int32_t)nb;
    GETL(14, g->cstep, DECLARE, ADVANCE);
    PyObject *cur = PyTuple_GET_ITEM(f, 15);
    if (cur == Py_None) {
        g->has_cur = 0;
    } else {
        if (!PyTuple_Check(cur) || PyTuple_GET_SIZE(cur) != 6) {
            PyErr_SetString(PyExc_TypeError, "cur: None or a 6-tuple");
            return -1;
        }
        if (read_bat(PyTuple_GET_ITEM(cur, 0), PyTuple_GET_ITEM(cur, 1), &g->cur, t->nu) < 0)
            return -1;
        g->has_cur = 1;
        long c2 = PyLong_AsLong(PyTuple_GET_ITEM(cur, 2));
        long c3 = PyLong_AsLong(PyTuple_GET_ITEM(cur, 3));
        long c4 = PyLong_AsLong(PyTuple_GET_ITEM(cur, 4));
        long c5 = PyLong_AsLong(PyTuple_GET_ITEM(cur, 5));
        if (PyErr_Occurred())
            return -1;
        if (c2 < 0 || c2 >= t->size || c3 > 6 || c3 < -20 || c4 < -1 || c4 > R_EX || c5 < -1 || c5 > 1000) {
            PyErr_SetString(CoreError, "cur out of range");
            return -1;
        }
        g->cur_hex = (int32_t)c2;
        g->cur_col = (int32_t)c3;
        g->cur_res = (int32_t)c4;
        g->cur_owed = (int32_t)c5;
    }
    GETL(16, g->result, -1, 2);
    /* consistency: what the core relies on (a state the Python engine made always passes) */
    BS occ[2] = {bs_zero(), bs_zero()};
    for (int u = 0; u < t->nu; u++) {
        int h = g->loc[u];
        if (h < 0)
            continue;
        if (!bs_has(t->valid, h) || (g->at[h] != u && g->stack != u) || g->steps[u] < 1) {
            PyErr_SetString(CoreError, "loc, at and steps disagree");
            return -1;
        }
        if (g->at[h] == u)
            bs_set(&occ[t->u_side[u]], h);
    }
    for (int h = 0; h < t->size; h++)
        if (g->at[h] >= 0 && g->loc[g->at[h]] != h) {
            PyErr_SetString(CoreError, "at and loc disagree");
            return -1;
        }
    if (!bs_eq(occ[0], g->occ[0]) || !bs_eq(occ[1], g->occ[1])) {
        PyErr_SetString(CoreError, "occ does not match the units on the map");
        return -1;
    }
    if (g->stack >= 0 && (g->loc[g->stack] < 0 || g->at[g->loc[g->stack]] == g->stack)) {
        PyErr_SetString(CoreError, "the waiting unit does not share a hex");
        return -1;
    }
    for (int i = 0; i < g->nb; i++) /* the battle being fought may have lost its defender */
        if (g->loc[g->bat[i].def] < 0 && !(g->has_cur && g->bat[i].def == g->cur.def)) {
            PyErr_SetString(CoreError, "a declared battle's defender is off the map");
            return -1;
        }
    if (t->ph_kind[g->phase] == K_COMBAT && g->result < 0 && g->cstep >= ROLL) {
        if (!g->has_cur || !bs_has(t->valid, g->cur_hex)) {
            PyErr_SetString(CoreError, "a battle step without a battle");
            return -1;
        }
        if ((g->cstep == ROLL && g->cur_col < 1) ||
            ((g->cstep == STAND || g->cstep == RETREAT) && g->loc[g->cur.def] < 0)) {
            PyErr_SetString(CoreError, "the battle in progress is inconsistent");
            return -1;
        }
    }
    return 0;
#undef GETL
#undef GETU
}

static PyObject *words(BS m) {
    return Py_BuildValue("(KKK)", (unsigned long long)m.w[0], (unsigned long long)m.w[1],
                         (unsigned long long)m.w[2]);
}

static PyObject *bat_tuple(const Bat *b) {
    PyObject *atts = PyTuple_New(b->n);
    if (!atts)
        return NULL;
    for (int i = 0; i < b->n; i++) {
        PyObject *x = PyLong_FromLong(b->att[i]);
        if (!x) {
            Py_DECREF(atts);
            return NULL;
        }
        PyTuple_SET_ITEM(atts, i, x);
    }
    return atts;
}

static PyObject *int_list(const int16_t *v, int n) {
    PyObject *l = PyList_New(n);
    if (!l)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *export_fields(const Tables *t, const G *g) {
    PyObject *battles = PyTuple_New(g->nb);
    if (!battles)
        return NULL;
    for (int i = 0; i < g->nb; i++) {
        PyObject *atts = bat_tuple(&g->bat[i]);
        if (!atts) {
            Py_DECREF(battles);
            return NULL;
        }
        PyObject *b = Py_BuildValue("(iN)", (int)g->bat[i].def, atts);
        if (!b) {
            Py_DECREF(battles);
            return NULL;
        }
        PyTuple_SET_ITEM(battles, i, b);
    }
    PyObject *cur;
    if (g->has_cur) {
        PyObject *atts = bat_tuple(&g->cur);
        if (!atts) {
            Py_DECREF(battles);
            return NULL;
        }
        cur = Py_BuildValue("(iNiiii)", (int)g->cur.def, atts, g->cur_hex, g->cur_col, g->cur_res, g->cur_owed);
    } else {
        cur = Py_NewRef(Py_None);
    }
    if (!cur) {
        Py_DECREF(battles);
        return NULL;
    }
    return Py_BuildValue("(iiNNNNNKKiKKiNiNi)", g->turn, g->phase, int_list(g->loc, t->nu),
                         int_list(g->steps, t->nu), int_list(g->at, t->size), words(g->occ[0]), words(g->occ[1]),
                         (unsigned long long)g->control, (unsigned long long)g->done, g->repl,
                         (unsigned long long)g->rebuilt, (unsigned long long)g->arrived, g->stack, battles,
                         g->cstep, cur, g->result);
}

static PyObject *core_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"tables", "fields", NULL};
    PyObject *tables, *fields = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|O", kwlist, &TablesType, &tables, &fields))
        return NULL;
    if (tables_ready((TablesObject *)tables) < 0)
        return NULL;
    CoreObject *self = (CoreObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    memset(&self->w, 0, sizeof(self->w));
    self->tables = (TablesObject *)Py_NewRef(tables);
    const Tables *t = &self->tables->t;
    if (fields == Py_None) {
        init_game(t, &self->g, &self->w);
    } else if (load_fields(t, &self->g, fields) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static int ensure_legal(CoreObject *self) {
    if (!self->w.legal_valid)
        gen_legal(&self->tables->t, &self->g, &self->w);
    return core_error(&self->w);
}

static PyObject *core_legal_codes(CoreObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_legal(self) < 0)
        return NULL;
    PyObject *l = PyList_New(self->w.nacts);
    if (!l)
        return NULL;
    for (int i = 0; i < self->w.nacts; i++) {
        PyObject *x = PyLong_FromLong(self->w.acts[i].code);
        if (!x) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, x);
    }
    return l;
}

static PyObject *core_num_legal(CoreObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_legal(self) < 0)
        return NULL;
    return PyLong_FromLong(self->w.nacts);
}

static PyObject *core_legal_mask(CoreObject *self, PyObject *arg) {
    /* write 1 at each legal code of a writable bytes-like buffer of the action space's size
       (zeroed first) */
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (ensure_legal(self) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    if (view.itemsize != 1) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "legal_mask needs a buffer of single bytes (int8/uint8/bool)");
        return NULL;
    }
    memset(view.buf, 0, (size_t)view.len);
    for (int i = 0; i < self->w.nacts; i++) {
        int c = self->w.acts[i].code;
        if (c < 0 || c >= view.len) {
            PyBuffer_Release(&view);
            PyErr_SetString(CoreError, "legal_mask: the buffer is smaller than the action space");
            return NULL;
        }
        ((uint8_t *)view.buf)[c] = 1;
    }
    PyBuffer_Release(&view);
    return PyLong_FromLong(self->w.nacts);
}

static int do_apply(CoreObject *self, long code) {
    const Tables *t = &self->tables->t;
    if (self->g.result >= 0) {
        PyErr_SetString(IllegalCodeError, "the game is over");
        return -1;
    }
    if (ensure_legal(self) < 0)
        return -1;
    int i = (code < INT32_MIN || code > INT32_MAX) ? -1 : find_code(&self->w, (int)code);
    if (i < 0) {
        PyErr_Format(IllegalCodeError, "action code %ld is not legal in this position", code);
        return -1;
    }
    apply_act(t, &self->g, &self->w, self->w.acts[i]);
    if (!self->w.err)
        play_forced(t, &self->g, &self->w);
    return core_error(&self->w);
}

static PyObject *core_apply(CoreObject *self, PyObject *arg) {
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "apply takes an int action code");
        return NULL;
    }
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(IllegalCodeError, "action code out of range");
        return NULL;
    }
    if (do_apply(self, code) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static inline void set_plane(float *out, int ch, int npad, float v) {
    float *p = out + (size_t)ch * (size_t)npad;
    for (int i = 0; i < npad; i++)
        p[i] = v;
}

/* typhoon.games.bfm.env.observation.ObservationCodec.observe, into ``out`` */
static void observe(const Tables *t, const G *g, int observer, float *out) {
    int P = t->npad;
    memcpy(out, t->obs_template, (size_t)t->obs_nch * (size_t)P * sizeof(float));
    for (int u = 0; u < t->nu; u++) { /* unit planes: unit, full, strength, move (a later unit wins a shared hex) */
        int h = g->loc[u];
        if (h < 0)
            continue;
        float *c = out + (size_t)(t->ch_unit + t->u_side[u] * 5) * (size_t)P + t->pad[h];
        c[0] = 1.0f;
        c[P] = g->steps[u] == 2 ? 1.0f : 0.0f;
        c[2 * P] = (float)((double)strength(t, g, u) / t->strength_scale);
        c[3 * P] = (float)((double)t->u_move[u] / t->move_scale);
    }
    for (uint64_t x = g->done; x; x &= x - 1) {
        int u = __builtin_ctzll(x);
        if (u < t->nu && g->loc[u] >= 0)
            out[(size_t)(t->ch_unit + t->u_side[u] * 5 + 4) * (size_t)P + t->pad[g->loc[u]]] = 1.0f;
    }
    BS rows[10];
    memset(rows, 0, sizeof(rows));
    rows[0] = expand(t, g->occ[0]);
    rows[1] = expand(t, g->occ[1]);
    rows[2] = controlled_city_mask(t, g, 0);
    rows[3] = bs_andn(t->city_all, rows[2]);
    if (g->stack >= 0 && g->loc[g->stack] >= 0)
        bs_set(&rows[4], g->loc[g->stack]);
    if (t->ph_kind[g->phase] == K_MOVEMENT)
        for (uint64_t x = movable_units(t, g); x; x &= x - 1)
            bs_set(&rows[5], g->loc[__builtin_ctzll(x)]);
    for (int i = 0; i < g->nb; i++) {
        const Bat *b = &g->bat[i];
        if (g->loc[b->def] >= 0)
            bs_set(&rows[6], g->loc[b->def]);
        for (int k = 0; k < b->n; k++)
            if (g->loc[b->att[k]] >= 0)
                bs_set(&rows[7], g->loc[b->att[k]]);
    }
    if (g->has_cur) {
        bs_set(&rows[8], g->cur_hex);
        for (int k = 0; k < g->cur.n; k++)
            if (g->loc[g->cur.att[k]] >= 0)
                bs_set(&rows[9], g->loc[g->cur.att[k]]);
    }
    for (int r = 0; r < 10; r++) {
        float *plane = out + (size_t)(t->ch_rows + r) * (size_t)P;
        BS m = bs_and(rows[r], t->valid);
        BS_FOR(m, h) { plane[t->pad[h]] = 1.0f; }
    }
    int nglob = t->obs_nch - t->first_global;
    double gv[1000];
    for (int i = 0; i < nglob; i++)
        gv[i] = 0.0;
    gv[t->g_turn + g->turn] = 1.0;
    gv[t->g_phase + g->phase] = 1.0;
    gv[t->g_step + g->cstep] = 1.0;
    if (is_mud(t, g->turn))
        gv[t->g_mud] = 1.0;
    int who = current_player(t, g);
    if (who >= 0)
        gv[t->g_to_act + who] = 1.0;
    if (observer >= 0 && observer <= 1)
        gv[t->g_observer + observer] = 1.0;
    double r = (double)g->repl / t->repl_scale;
    gv[t->g_repl] = r < 1.0 ? r : 1.0;
    gv[t->g_vpg] = t->vpg;
    if (g->has_cur) {
        gv[t->g_odds] = (double)(g->cur_col > 0 ? g->cur_col : 0) / t->odds_scale;
        if (g->cur_res >= 0)
            gv[t->g_result + g->cur_res] = 1.0;
        gv[t->g_owed] = (double)(g->cur_owed > 0 ? g->cur_owed : 0) / t->strength_scale;
    }
    if (t->ph_kind[g->phase] == K_REPLACEMENT && reinforcement_due(t, g) >= 0)
        gv[t->g_due] = 1.0;
    if (t->fs_unit >= 0 && ((g->arrived >> t->fs_unit) & 1))
        gv[t->g_arrived] = 1.0;
    for (int side = 0; side < 2; side++) {
        int off = 0;
        for (int u = t->side_lo[side]; u < t->side_hi[side]; u++)
            off += g->loc[u] == -1;
        gv[t->g_off + side] = (double)off / (double)t->side_count[side];
    }
    for (int i = 0; i < nglob; i++)
        set_plane(out, t->first_global + i, P, (float)gv[i]);
}

static PyObject *core_observe(CoreObject *self, PyObject *args) {
    PyObject *buf;
    int observer;
    if (!PyArg_ParseTuple(args, "Oi", &buf, &observer))
        return NULL;
    const Tables *t = &self->tables->t;
    if (!t->obs_ok) {
        PyErr_SetString(CoreError, "no observation layout: call Tables.set_observation first");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(buf, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.len != (Py_ssize_t)t->obs_nch * t->npad * (Py_ssize_t)sizeof(float)) {
        PyBuffer_Release(&view);
        PyErr_SetString(CoreError, "observe: the buffer must hold exactly one float32 observation");
        return NULL;
    }
    observe(t, &self->g, observer, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *core_copy(CoreObject *self, PyObject *Py_UNUSED(ignored)) {
    CoreObject *o = (CoreObject *)CoreType.tp_alloc(&CoreType, 0);
    if (!o)
        return NULL;
    memset(&o->w, 0, sizeof(o->w));
    o->tables = (TablesObject *)Py_NewRef(self->tables);
    o->g = self->g;
    return (PyObject *)o;
}

static PyObject *core_export(CoreObject *self, PyObject *Py_UNUSED(ignored)) {
    return export_fields(&self->tables->t, &self->g);
}

static PyObject *core_current_player(CoreObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(current_player(&self->tables->t, &self->g));
}

static PyObject *core_playout(CoreObject *self, PyObject *args) {
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "K", &seed))
        return NULL;
    uint64_t s = seed;
    long n = playout(&self->tables->t, &self->g, &self->w, &s);
    if (n < 0) {
        if (core_error(&self->w) < 0)
            return NULL;
    }
    return Py_BuildValue("(il)", self->g.result, n);
}

static PyObject *core_get_result(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(self->g.result);
}
static PyObject *core_get_turn(CoreObject *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->g.turn); }
static PyObject *core_get_phase(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(self->g.phase);
}
static PyObject *core_get_is_chance(CoreObject *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(is_chance(&self->tables->t, &self->g));
}
static PyObject *core_get_tables(CoreObject *self, void *Py_UNUSED(closure)) {
    return Py_NewRef((PyObject *)self->tables);
}

static PyMethodDef core_methods[] = {
    {"legal_codes", (PyCFunction)core_legal_codes, METH_NOARGS, "The codes of the legal actions (list of int)."},
    {"num_legal", (PyCFunction)core_num_legal, METH_NOARGS, "How many actions are legal."},
    {"legal_mask", (PyCFunction)core_legal_mask, METH_O,
     "Write the legal-action mask into a writable one-byte buffer; returns the count."},
    {"apply", (PyCFunction)core_apply, METH_O,
     "Apply a legal action code in place (then every forced decision); IllegalCodeError otherwise."},
    {"copy", (PyCFunction)core_copy, METH_NOARGS, "An independent copy of the position."},
    {"observe", (PyCFunction)core_observe, METH_VARARGS,
     "observe(buffer, observer): write the environments' observation (float32) into a writable buffer."},
    {"export", (PyCFunction)core_export, METH_NOARGS, "The position's fields as a tuple."},
    {"current_player", (PyCFunction)core_current_player, METH_NOARGS,
     "0 German, 1 Soviet, -1 chance, -2 game over."},
    {"playout", (PyCFunction)core_playout, METH_VARARGS,
     "Uniform random play to the end, in place: (result, actions chosen)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"result", (getter)core_get_result, NULL, "-1 going on, 0 German, 1 Soviet, 2 draw", NULL},
    {"turn", (getter)core_get_turn, NULL, "turn", NULL},
    {"phase", (getter)core_get_phase, NULL, "phase index", NULL},
    {"is_chance", (getter)core_get_is_chance, NULL, "a die roll is due", NULL},
    {"tables", (getter)core_get_tables, NULL, "the ruleset's tables", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "typhoon.games.bfm._bfmcore.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Battle for Moscow position in the native core: Core(tables, fields=None).",
    .tp_new = core_new,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};

/* ---------------------------------------------------------------------------------------- */
/* module                                                                                   */

static PyObject *mod_random_games(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *tables;
    long n;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!lK", &TablesType, &tables, &n, &seed))
        return NULL;
    if (tables_ready((TablesObject *)tables) < 0)
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must be >= 0");
        return NULL;
    }
    const Tables *t = &((TablesObject *)tables)->t;
    G g;
    W w;
    memset(&w, 0, sizeof(w));
    long wins[3] = {0, 0, 0};
    long long actions = 0;
    uint64_t s = seed;
    for (long i = 0; i < n; i++) {
        init_game(t, &g, &w);
        w.legal_valid = 0;
        long k = playout(t, &g, &w, &s);
        if (k < 0)
            break;
        actions += k;
        wins[g.result]++;
    }
    if (core_error(&w) < 0) {
        w_free(&w);
        return NULL;
    }
    w_free(&w);
    return Py_BuildValue("(lllL)", wins[0], wins[1], wins[2], actions);
}

/* ---------------------------------------------------------------------------------------- */
/* movement plans of the AI's roll-outs (typhoon.games.bfm.ai.native_plan)                   */
/*
 * The greedy loop of typhoon.games.bfm.ai.movement.plan_moves with the scores of
 * scoring.SovietScorer and of scoring.GermanScorer after combat, transcribed: the same
 * floating-point operations in the same order (so the same doubles), the same table order
 * for ties (a pair keeps its place in the Python dict when re-scored, goes to the end when
 * popped and scored again: a sequence number here). Everything that depends on the position
 * is worked out by the Python scorer and handed over; no game data lives here either.
 */

#define PL_MAXP 4096 /* (unit, hex) pairs of one plan */

typedef struct {
    int size;
    BS nmask[MAXH];
    BS within1[MAXH];
    BS within2[MAXH];
    BS river[MAXH];
    BS moscow;
    BS city;
    BS forest;
    int shift[2][MAXH];
    int mcost[MAXH];
    double probs[7][6];
} PlanTables;

typedef struct {
    int kind; /* 0 Soviet, 1 German after combat */
    /* per mover */
    int st[MAXU], loss[MAXU], steps[MAXU], panzer[MAXU];
    /* common */
    BS plan_occ, taken;
    double w_cohesion, w_exposure, my_w, elim_bonus;
    PyObject *vacate; /* callable hex -> float */
    double vac[MAXH];
    char vac_known[MAXH];
    int failed;
    /* Soviet */
    int final;
    double garrison_v, retake_v, city_v, ring_v, w_terrain, w_river, w_cover;
    BS cover_occ, ger_occ, ger_zoc;
    int dg[MAXH], inf_adj[MAXH];
    int pz_sum[MAXH][7]; /* sum of the k strongest panzers near the hex, k = 0..6 */
    double gate[MAXH];
    /* German */
    double prog_w, moscow_v, w_contact;
    int late;
    BS sov_occ, sov_block;
    double threat[MAXH];
} PlanScorer;

static const char *PLAN_CAPSULE = "typhoon.games.bfm._bfmcore.PlanTables";

static int pl_bs(PyObject *o, BS *out) {
    /* a non-negative Python int below 2**192 -> BS */
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "a hex set must be an int");
        return -1;
    }
    unsigned char buf[24];
    if (_PyLong_AsByteArray((PyLongObject *)o, buf, 24, 1, 0) < 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = (w << 8) | buf[8 * k + b];
        out->w[k] = w;
    }
    return 0;
}

static PyObject *pl_get(PyObject *d, const char *key) {
    PyObject *v = PyDict_GetItemString(d, key);
    if (!v)
        PyErr_Format(PyExc_KeyError, "plan input without %s", key);
    return v;
}

static int pl_int(PyObject *d, const char *key, int *out) {
    PyObject *v = pl_get(d, key);
    if (!v)
        return -1;
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *out = (int)x;
    return 0;
}

static int pl_double(PyObject *d, const char *key, double *out) {
    PyObject *v = pl_get(d, key);
    if (!v)
        return -1;
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred())
        return -1;
    *out = x;
    return 0;
}

static int pl_mask(PyObject *d, const char *key, BS *out) {
    PyObject *v = pl_get(d, key);
    return v ? pl_bs(v, out) : -1;
}

/* d[key] as a fast sequence of exactly n items (a new reference), or NULL with the error set */
static PyObject *pl_seq(PyObject *d, const char *key, int n) {
    PyObject *v = pl_get(d, key);
    if (!v)
        return NULL;
    PyObject *f = PySequence_Fast(v, "a list is expected");
    if (f && PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: %d values expected", key, n);
        return NULL;
    }
    return f;
}

/* a sequence of n ints, of n floats, of n hex sets */
static int pl_ints(PyObject *d, const char *key, int *out, int n) {
    PyObject *f = pl_seq(d, key, n);
    if (!f)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (x == -1 && PyErr_Occurred())
            rc = -1;
        else
            out[i] = (int)x;
    }
    Py_DECREF(f);
    return rc;
}

static int pl_doubles(PyObject *d, const char *key, double *out, int n) {
    PyObject *f = pl_seq(d, key, n);
    if (!f)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        double x = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(f, i));
        if (x == -1.0 && PyErr_Occurred())
            rc = -1;
        else
            out[i] = x;
    }
    Py_DECREF(f);
    return rc;
}

static int pl_masks(PyObject *d, const char *key, BS *out, int n) {
    PyObject *f = pl_seq(d, key, n);
    if (!f)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        rc = pl_bs(PySequence_Fast_GET_ITEM(f, i), &out[i]) < 0 ? -1 : 0;
    Py_DECREF(f);
    return rc;
}

static void pl_free(PyObject *cap) { free(PyCapsule_GetPointer(cap, PLAN_CAPSULE)); }

/* plan_tables(dict) -> capsule: the static tables of a ruleset the planner reads */
static PyObject *mod_plan_tables(PyObject *self, PyObject *d) {
    (void)self;
    if (!PyDict_Check(d)) {
        PyErr_SetString(PyExc_TypeError, "plan_tables takes a dict");
        return NULL;
    }
    PlanTables *t = calloc(1, sizeof(PlanTables));
    if (!t)
        return PyErr_NoMemory();
    double probs[42];
    if (pl_int(d, "size", &t->size) < 0)
        goto fail;
    if (t->size <= 0 || t->size > MAXH) {
        PyErr_SetString(CoreError, "plan_tables: more hex slots than the core holds");
        goto fail;
    }
    if (pl_masks(d, "nmask", t->nmask, t->size) < 0 || pl_masks(d, "within1", t->within1, t->size) < 0 ||
        pl_masks(d, "within2", t->within2, t->size) < 0 || pl_masks(d, "river", t->river, t->size) < 0 ||
        pl_mask(d, "moscow", &t->moscow) < 0 || pl_mask(d, "city", &t->city) < 0 ||
        pl_mask(d, "forest", &t->forest) < 0 ||
        pl_ints(d, "shift_german", t->shift[0], t->size) < 0 || pl_ints(d, "shift_soviet", t->shift[1], t->size) < 0 ||
        pl_ints(d, "mcost", t->mcost, t->size) < 0 || pl_doubles(d, "probs", probs, 42) < 0)
        goto fail;
    for (int c = 0; c < 7; c++)
        for (int r = 0; r < 6; r++)
            t->probs[c][r] = probs[6 * c + r];
    PyObject *cap = PyCapsule_New(t, PLAN_CAPSULE, pl_free);
    if (!cap)
        goto fail;
    return cap;
fail:
    free(t);
    return NULL;
}

static inline int pl_min2(int x) { return x < 2 ? x : 2; }

static inline int pl_odds(long atk, int defense) {
    if (defense <= 0)
        return 6;
    long c = atk / (2L * defense);
    return c < 6 ? (int)c : 6;
}

/* scoring._risk */
static void pl_risk(const double *p, int steps, int strength, int loss_pts, int surrounded, double *pts,
                    double *p_elim, double *p_vac) {
    double a = 0.0, e = 0.0, v = 0.0;
    for (int r = 0; r < 6; r++) {
        double q = p[r];
        if (q == 0.0 || r == R_NE || r == R_AL)
            continue;
        v += q;
        if (r == R_DE || surrounded || ((r == R_DRL || r == R_EX) && steps == 1)) {
            a += q * strength;
            e += q;
        } else if (r == R_DRL || r == R_EX) {
            a += q * loss_pts;
        }
    }
    *pts = a;
    *p_elim = e;
    *p_vac = v;
}

static double pl_vacate(PlanScorer *sc, int h) {
    if (sc->vac_known[h])
        return sc->vac[h];
    double v = 0.0;
    PyObject *r = PyObject_CallFunction(sc->vacate, "i", h);
    if (!r) {
        sc->failed = 1;
    } else {
        v = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (v == -1.0 && PyErr_Occurred())
            sc->failed = 1;
    }
    sc->vac[h] = v;
    sc->vac_known[h] = 1;
    return v;
}

static inline int bs_count(BS a) {
    return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]) + __builtin_popcountll(a.w[2]);
}

/* SovietScorer.score */
static double pl_soviet(const PlanTables *t, PlanScorer *sc, int i, int h) {
    double val = 0.0;
    int taken = bs_has(sc->taken, h);
    if (bs_has(t->moscow, h)) {
        val += sc->garrison_v;
        if (taken)
            val += sc->retake_v;
    } else if (taken) {
        val += sc->city_v;
    }
    if (sc->final)
        return val + 0.1 * t->shift[1][h] - 0.01 * t->mcost[h];
    BS nb = t->nmask[h];
    if (bs_any(bs_and(nb, t->moscow)))
        val += sc->ring_v;
    val += sc->w_terrain * t->shift[1][h];
    if (bs_any(t->river[h])) {
        int dgh = sc->dg[h], n = 0;
        BS_FOR(t->river[h], x) {
            if (sc->dg[x] < dgh)
                n++;
        }
        val += sc->w_river * n;
    }
    double cover = 0.0;
    BS around = nb;
    bs_set(&around, h);
    BS open = bs_andn(around, sc->cover_occ);
    BS_FOR(open, x) { cover += sc->gate[x]; }
    val += sc->w_cover * cover;
    val += sc->w_cohesion * pl_min2(bs_count(bs_and(nb, sc->plan_occ)));
    /* _exposure */
    double expo = 0.0;
    long atk = sc->inf_adj[h];
    BS free_ = bs_andn(bs_andn(nb, sc->plan_occ), sc->ger_occ);
    int k = bs_count(free_);
    if (k)
        atk += sc->pz_sum[h][k > 6 ? 6 : k];
    if (atk) {
        int st = sc->st[i], steps = sc->steps[i];
        int col = pl_odds(atk, st) - t->shift[1][h];
        if (col >= 1) {
            int trapped = !bs_any(bs_andn(free_, sc->ger_zoc));
            double pts, pe, pv;
            pl_risk(t->probs[col], steps, st, sc->loss[i], trapped, &pts, &pe, &pv);
            double cost = sc->my_w * pts + sc->elim_bonus * pe;
            expo = cost + pv * pl_vacate(sc, h);
        }
    }
    val -= sc->w_exposure * expo;
    val -= 0.05 * t->mcost[h];
    return val;
}

/* GermanScorer.score after combat */
static double pl_german(const PlanTables *t, PlanScorer *sc, int i, int h) {
    double val = 0.0;
    val -= sc->prog_w * t->mcost[h];
    if (bs_has(sc->taken, h))
        val += sc->city_v;
    if (bs_has(t->moscow, h))
        val += sc->moscow_v;
    BS nb = t->nmask[h];
    val += sc->w_cohesion * pl_min2(bs_count(bs_and(nb, sc->plan_occ)));
    int k = bs_count(bs_and(nb, sc->sov_occ));
    val += sc->w_contact * pl_min2(k) * (sc->panzer[i] ? 0.5 : 1.0);
    if (sc->late && bs_any(bs_and(nb, t->moscow)))
        val += 1.5 * sc->late;
    double atk = sc->threat[h];
    if (atk > 0) {
        int steps = sc->steps[i], st = sc->st[i];
        int col = pl_odds((long)atk, st) - t->shift[0][h];
        if (col >= 1) {
            int trapped = !bs_any(bs_andn(nb, sc->sov_block));
            double pts, pe, pv;
            pl_risk(t->probs[col], steps, st, sc->loss[i], trapped, &pts, &pe, &pv);
            double cost = sc->my_w * pts + sc->elim_bonus * pe;
            if (bs_has(t->moscow, h) || bs_has(t->city, h))
                cost += pv * pl_vacate(sc, h);
            val -= sc->w_exposure * cost;
        }
    }
    return val;
}

static inline double pl_score(const PlanTables *t, PlanScorer *sc, int i, int h) {
    return sc->kind == 0 ? pl_soviet(t, sc, i, h) : pl_german(t, sc, i, h);
}

/* approach_cost(tables, sources, blocked, limit) -> list: typhoon.games.bfm.ai.board.approach_cost,
 * movement points from the nearest hex of sources to every hex slot (entering a forest costs 2,
 * a blocked hex is never entered), limit where farther or unreached. Shortest costs are unique,
 * so this bucket queue gives the Python one's numbers whatever order it takes hexes in. */
static PyObject *mod_approach_cost(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *src_o, *blk_o;
    int limit;
    if (!PyArg_ParseTuple(args, "OOOi", &cap, &src_o, &blk_o, &limit))
        return NULL;
    const PlanTables *t = PyCapsule_GetPointer(cap, PLAN_CAPSULE);
    if (!t)
        return NULL;
    if (limit < 0 || limit > 4096) {
        PyErr_SetString(PyExc_ValueError, "approach_cost: limit out of range");
        return NULL;
    }
    BS src, blocked;
    if (pl_bs(src_o, &src) < 0 || pl_bs(blk_o, &blocked) < 0)
        return NULL;
    int size = t->size;
    int cost[MAXH];
    for (int h = 0; h < size; h++)
        cost[h] = limit;
    /* buckets of hexes by cost, as linked lists through next[] (a hex may sit in several) */
    int cap_items = MAXH * 8, n_items = 0;
    int *item_hex = malloc(sizeof(int) * cap_items), *item_next = malloc(sizeof(int) * cap_items);
    int *head = malloc(sizeof(int) * (limit + 2));
    if (!item_hex || !item_next || !head) {
        free(item_hex);
        free(item_next);
        free(head);
        return PyErr_NoMemory();
    }
    for (int c = 0; c < limit + 2; c++)
        head[c] = -1;
    int failed = 0;
#define AC_PUSH(c, h)                                                                                     \
    do {                                                                                                  \
        if (n_items >= cap_items) {                                                                       \
            failed = 1;                                                                                   \
        } else {                                                                                          \
            item_hex[n_items] = (h);                                                                      \
            item_next[n_items] = head[c];                                                                 \
            head[c] = n_items++;                                                                          \
        }                                                                                                 \
    } while (0)
    BS_FOR(src, h) {
        if (h < size) {
            cost[h] = 0;
            AC_PUSH(0, h);
        }
    }
    for (int c = 0; c < limit && !failed; c++) {
        for (int it = head[c]; it >= 0; it = item_next[it]) {
            int h = item_hex[it];
            if (cost[h] != c)
                continue;
            BS nb = bs_andn(t->nmask[h], blocked);
            BS_FOR(nb, n) {
                if (n >= size)
                    continue;
                int nc = c + (bs_has(t->forest, n) ? 2 : 1);
                if (nc < cost[n]) {
                    cost[n] = nc;
                    if (nc <= limit)
                        AC_PUSH(nc, n);
                }
            }
        }
    }
#undef AC_PUSH
    free(item_hex);
    free(item_next);
    free(head);
    if (failed) {
        PyErr_SetString(CoreError, "approach_cost: queue overflow");
        return NULL;
    }
    PyObject *out = PyList_New(size);
    if (!out)
        return NULL;
    for (int h = 0; h < size; h++) {
        PyObject *x = PyLong_FromLong(cost[h]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, h, x);
    }
    return out;
}

typedef struct {
    int unit, hex; /* mover index, hex */
    int present;
    long seq;
    double val;
} PlPair;

/* plan_greedy(tables, movers, order, inputs) -> (steps, stays, placed, value)
 * movers: (start hex, destinations mask, strength, loss, steps, panzer) per mover, in the
 * side's unit order (as plan_moves takes them); order: mover indices in the order the Python
 * set of movers iterates; inputs: the scorer's position facts (see native_plan.py). */
static PyObject *mod_plan_greedy(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cap, *movers, *order, *d;
    if (!PyArg_ParseTuple(args, "OOOO!", &cap, &movers, &order, &PyDict_Type, &d))
        return NULL;
    const PlanTables *t = PyCapsule_GetPointer(cap, PLAN_CAPSULE);
    if (!t)
        return NULL;
    PlanScorer *sc = calloc(1, sizeof(PlanScorer));
    PlPair *pairs = malloc(sizeof(PlPair) * PL_MAXP);
    int *by_hex_start = calloc(MAXH + 1, sizeof(int));
    int *by_hex = malloc(sizeof(int) * PL_MAXP);
    PyObject *result = NULL, *mv = NULL, *ord = NULL;
    if (!sc || !pairs || !by_hex_start || !by_hex) {
        PyErr_NoMemory();
        goto done;
    }
    int size = t->size;
    int radius;
    if (pl_int(d, "kind", &sc->kind) < 0 || pl_int(d, "radius", &radius) < 0)
        goto done;
    if (radius != 1 && radius != 2) {
        PyErr_SetString(PyExc_ValueError, "plan_greedy: radius 1 or 2 only");
        goto done;
    }
    if (pl_mask(d, "plan_occ", &sc->plan_occ) < 0 || pl_mask(d, "taken", &sc->taken) < 0 ||
        pl_double(d, "w_cohesion", &sc->w_cohesion) < 0 || pl_double(d, "w_exposure", &sc->w_exposure) < 0 ||
        pl_double(d, "my_w", &sc->my_w) < 0 || pl_double(d, "elim_bonus", &sc->elim_bonus) < 0 ||
        pl_double(d, "city_v", &sc->city_v) < 0)
        goto done;
    sc->vacate = pl_get(d, "vacate");
    if (!sc->vacate)
        goto done;
    if (sc->kind == 0) {
        if (pl_int(d, "final", &sc->final) < 0 || pl_double(d, "garrison_v", &sc->garrison_v) < 0 ||
            pl_double(d, "retake_v", &sc->retake_v) < 0 || pl_double(d, "ring_v", &sc->ring_v) < 0 ||
            pl_double(d, "w_terrain", &sc->w_terrain) < 0 || pl_double(d, "w_river", &sc->w_river) < 0 ||
            pl_double(d, "w_cover", &sc->w_cover) < 0 || pl_mask(d, "cover_occ", &sc->cover_occ) < 0 ||
            pl_mask(d, "ger_occ", &sc->ger_occ) < 0 || pl_mask(d, "ger_zoc", &sc->ger_zoc) < 0 ||
            pl_ints(d, "dg", sc->dg, size) < 0 || pl_ints(d, "inf_adj", sc->inf_adj, size) < 0 ||
            pl_doubles(d, "gate", sc->gate, size) < 0)
            goto done;
        /* panzers: (hexes within reach, attack halves) per German panzer; pz_sum[h][k] = the
           sum of the k strongest panzers within reach of h (sum(pz_near[h][:k]) in Python) */
        PyObject *pzl = pl_get(d, "panzers");
        PyObject *pzf = pzl ? PySequence_Fast(pzl, "panzers: a list") : NULL;
        if (!pzf)
            goto done;
        int top[MAXH][6], ntop[MAXH];
        memset(ntop, 0, sizeof(ntop));
        for (Py_ssize_t p = 0; p < PySequence_Fast_GET_SIZE(pzf); p++) {
            PyObject *row = PySequence_Fast_GET_ITEM(pzf, p), *m;
            int st;
            BS reach;
            if (!PyArg_ParseTuple(row, "Oi", &m, &st) || pl_bs(m, &reach) < 0) {
                Py_DECREF(pzf);
                goto done;
            }
            BS_FOR(reach, x) {
                if (x >= size)
                    continue;
                /* st into the hex's strongest six, kept in decreasing order */
                int n = ntop[x];
                if (n == 6 && st <= top[x][5])
                    continue;
                int j = n < 6 ? n : 5;
                while (j > 0 && top[x][j - 1] < st) {
                    top[x][j] = top[x][j - 1];
                    j--;
                }
                top[x][j] = st;
                if (n < 6)
                    ntop[x] = n + 1;
            }
        }
        Py_DECREF(pzf);
        for (int h = 0; h < size; h++) {
            int acc = 0;
            sc->pz_sum[h][0] = 0;
            for (int k = 0; k < 6; k++) {
                if (k < ntop[h])
                    acc += top[h][k];
                sc->pz_sum[h][k + 1] = acc;
            }
        }
    } else {
        if (pl_double(d, "prog_w", &sc->prog_w) < 0 || pl_double(d, "moscow_v", &sc->moscow_v) < 0 ||
            pl_double(d, "w_contact", &sc->w_contact) < 0 || pl_int(d, "late", &sc->late) < 0 ||
            pl_mask(d, "sov_occ", &sc->sov_occ) < 0 || pl_mask(d, "sov_block", &sc->sov_block) < 0 ||
            pl_doubles(d, "threat", sc->threat, size) < 0)
            goto done;
    }
    BS plan, enemy, unplaced;
    if (pl_mask(d, "plan", &plan) < 0 || pl_mask(d, "enemy", &enemy) < 0 || pl_mask(d, "unplaced", &unplaced) < 0)
        goto done;
    mv = PySequence_Fast(movers, "movers: a list");
    ord = mv ? PySequence_Fast(order, "order: a list") : NULL;
    if (!ord)
        goto done;
    int n = (int)PySequence_Fast_GET_SIZE(mv);
    if (n > MAXU || PySequence_Fast_GET_SIZE(ord) != n) {
        PyErr_SetString(PyExc_ValueError, "plan_greedy: too many movers or a bad order");
        goto done;
    }
    int start[MAXU], ordv[MAXU], in_set[MAXU];
    BS dest[MAXU];
    for (int i = 0; i < n; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(mv, i);
        PyObject *dm;
        if (!PyArg_ParseTuple(row, "iOiiii", &start[i], &dm, &sc->st[i], &sc->loss[i], &sc->steps[i], &sc->panzer[i]))
            goto done;
        if (pl_bs(dm, &dest[i]) < 0)
            goto done;
        if (start[i] < 0 || start[i] >= size) {
            PyErr_SetString(PyExc_ValueError, "plan_greedy: a mover off the map");
            goto done;
        }
        long o = PyLong_AsLong(PySequence_Fast_GET_ITEM(ord, i));
        if (o == -1 && PyErr_Occurred())
            goto done;
        if (o < 0 || o >= n) {
            PyErr_SetString(PyExc_ValueError, "plan_greedy: a bad order");
            goto done;
        }
        ordv[i] = (int)o;
        in_set[i] = 1;
    }
    /* the pairs, in the order plan_moves makes them (unit order, then hex order); by hex */
    int np = 0;
    int count[MAXH + 1];
    memset(count, 0, sizeof(count));
    for (int i = 0; i < n; i++) {
        BS_FOR(dest[i], h) {
            if (np >= PL_MAXP || h >= size) {
                np = PL_MAXP + 1;
                continue;
            }
            pairs[np].unit = i;
            pairs[np].hex = h;
            pairs[np].present = 0;
            np++;
            count[h]++;
        }
    }
    if (np > PL_MAXP) {
        PyErr_SetString(PyExc_ValueError, "plan_greedy: too many (unit, hex) pairs");
        goto done;
    }
    for (int h = 0; h < size; h++)
        by_hex_start[h + 1] = by_hex_start[h] + count[h];
    {
        int fill[MAXH];
        for (int h = 0; h < size; h++)
            fill[h] = by_hex_start[h];
        for (int p = 0; p < np; p++)
            by_hex[fill[pairs[p].hex]++] = p;
    }
    long seq = 0;
#define PL_ALLOWED(i, h)                                                                                  \
    (!bs_has(plan, h) && !bs_has(enemy, h) && ((h) == start[i] || !bs_has(unplaced, h)))
    for (int p = 0; p < np; p++) {
        int i = pairs[p].unit, h = pairs[p].hex;
        if (PL_ALLOWED(i, h)) {
            pairs[p].val = pl_score(t, sc, i, h) + 0.0;
            pairs[p].present = 1;
            pairs[p].seq = seq++;
        }
    }
    if (sc->failed)
        goto done;
    double value = 0.0;
    int left = n;
    PyObject *steps = PyList_New(0), *stays = PyList_New(0), *placed = PyList_New(0);
    if (!steps || !stays || !placed) {
        Py_XDECREF(steps);
        Py_XDECREF(stays);
        Py_XDECREF(placed);
        goto done;
    }
    int err = 0;
    while (left > 0 && !err) {
        int best = -1;
        for (int p = 0; p < np; p++) {
            if (!pairs[p].present)
                continue;
            if (best < 0 || pairs[p].val > pairs[best].val ||
                (pairs[p].val == pairs[best].val && pairs[p].seq < pairs[best].seq))
                best = p;
        }
        int i, h;
        if (best < 0) {
            i = -1;
            for (int k = 0; k < n; k++)
                if (in_set[ordv[k]]) {
                    i = ordv[k];
                    break;
                }
            h = start[i];
        } else {
            i = pairs[best].unit;
            h = pairs[best].hex;
            value += pairs[best].val;
        }
        /* place(i, h) */
        PyObject *x;
        if (h != start[i]) {
            x = Py_BuildValue("(ii)", i, h);
            err = !x || PyList_Append(steps, x) < 0;
        } else {
            x = PyLong_FromLong(i);
            err = !x || PyList_Append(stays, x) < 0;
        }
        Py_XDECREF(x);
        x = PyLong_FromLong(i);
        err = err || !x || PyList_Append(placed, x) < 0;
        Py_XDECREF(x);
        bs_set(&plan, h);
        bs_set(&sc->plan_occ, h); /* scorer.assign */
        if (sc->kind == 0) {
            bs_set(&sc->cover_occ, h);
            sc->cover_occ = bs_or(sc->cover_occ, t->nmask[h]);
        }
        bs_clr(&unplaced, start[i]);
        in_set[i] = 0;
        left--;
        for (int p = 0; p < np; p++)
            if (pairs[p].unit == i)
                pairs[p].present = 0;
        BS near = radius == 1 ? t->within1[h] : t->within2[h];
        bs_set(&near, start[i]); /* a local scorer: the hex left changes no score */
        BS_FOR(near, xh) {
            for (int q = by_hex_start[xh]; q < by_hex_start[xh + 1]; q++) {
                PlPair *pp = &pairs[by_hex[q]];
                int ii = pp->unit, hh = pp->hex;
                if (!in_set[ii])
                    continue;
                if (PL_ALLOWED(ii, hh)) {
                    pp->val = pl_score(t, sc, ii, hh) + 0.0;
                    if (!pp->present) {
                        pp->present = 1;
                        pp->seq = seq++;
                    }
                } else {
                    pp->present = 0;
                }
            }
        }
        if (sc->failed)
            err = 1;
    }
#undef PL_ALLOWED
    if (err) {
        Py_DECREF(steps);
        Py_DECREF(stays);
        Py_DECREF(placed);
        goto done;
    }
    result = Py_BuildValue("(NNNd)", steps, stays, placed, value);
done:
    Py_XDECREF(mv);
    Py_XDECREF(ord);
    free(sc);
    free(pairs);
    free(by_hex_start);
    free(by_hex);
    return result;
}

static PyMethodDef module_methods[] = {
    {"random_games", mod_random_games, METH_VARARGS,
     "random_games(tables, n, seed) -> (german wins, soviet wins, draws, actions chosen): n games "
     "from the start of set-up, every action (die rolls included) uniform among the legal ones."},
    {"plan_tables", mod_plan_tables, METH_O,
     "plan_tables(dict) -> the static tables of the AI's movement planner (typhoon.games.bfm.ai.native_plan)."},
    {"approach_cost", mod_approach_cost, METH_VARARGS,
     "approach_cost(tables, sources, blocked, limit) -> list: the AI's movement points from the nearest source."},
    {"plan_greedy", mod_plan_greedy, METH_VARARGS,
     "plan_greedy(tables, movers, order, inputs) -> (steps, stays, placed, value): the greedy movement plan "
     "of typhoon.games.bfm.ai.movement.plan_moves with the Soviet or the German after-combat scorer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_bfmcore", "Battle for Moscow: the native core (see typhoon.games.bfm.native).", -1,
    module_methods,        NULL,       NULL,
    NULL,                  NULL,
};

PyMODINIT_FUNC PyInit__bfmcore(void) {
    if (PyType_Ready(&TablesType) < 0 || PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    IllegalCodeError = PyErr_NewException("typhoon.games.bfm._bfmcore.IllegalCodeError", PyExc_ValueError, NULL);
    CoreError = PyErr_NewException("typhoon.games.bfm._bfmcore.CoreError", PyExc_ValueError, NULL);
    if (!IllegalCodeError || !CoreError || PyModule_AddObjectRef(m, "IllegalCodeError", IllegalCodeError) < 0 ||
        PyModule_AddObjectRef(m, "CoreError", CoreError) < 0 ||
        PyModule_AddObjectRef(m, "Tables", (PyObject *)&TablesType) < 0 ||
        PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
