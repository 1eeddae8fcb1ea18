/**
 * Every tunable of the solver in one place, each with the reason for its value. Changing one
 * changes seeded plans (the golden test records them). Tolerances that belong to the route
 * evaluator and the objective live with them (route-eval.ts, objective.ts, solution.ts).
 */

// ── Time split (index.ts) ───────────────────────────────────────────────────────────────────

/**
 * Share of the time limit the regret construction may use before finishing greedily (the search
 * needs the rest), counted as the work this machine does in it (CONSTRUCTION_WORK_PER_MS), not as time:
 * a busy machine must not start the search from another plan (construct.ts).
 */
export const CONSTRUCTION_SHARE = 0.5;
/** …and at most this long, so that a first plan is ready within seconds even under a long limit. */
export const CONSTRUCTION_CAP_MS = 5000;
/**
 * Work (stops walked, positions priced) the regret construction does in a millisecond, to turn
 * its share of the limit into work: the fast end of what was measured on this machine (cold, with
 * compilation: 1,000 generated stops 24.3 M units in 1.26 s, 19,000 a ms; 200 stops 0.48 M in
 * 0.12 s, 4,200 a ms), so that the budget cuts the construction no sooner than its time share
 * did on a quiet machine; on a slow problem it may run past its share, up to the run's deadline.
 */
export const CONSTRUCTION_WORK_PER_MS = 20_000;
/**
 * Time kept back from the search to build the result (final fill, schedules, unserved reasons):
 * grows with the problem (base + per stop), at most this share of the limit.
 */
export const RESERVE_SHARE = 0.07;
export const RESERVE_BASE_MS = 100;
export const RESERVE_PER_STOP_MS = 0.2;
/**
 * The first this many unserved stops get their hints whatever the clock (a bounded amount of work:
 * some 1–5 ms a stop once compiled on 1,000 stops), the rest only while the limit lasts: a plan cut
 * by its limit otherwise went out with no hint at all (multi-1000 at the default limit: 0 of 30).
 */
export const HINTED_STOPS_WITHOUT_CLOCK = 10;

// ── Location numbering (local-order.ts) ─────────────────────────────────────────────────────

/**
 * Whether the solver renumbers locations for the cache when SolveOptions.localOrder is absent,
 * from this many locations on: below it the distance matrix (4 bytes a cell) fits in a core's
 * L2 (1 MB here: 512 locations) and plans keep the problem's numbering exactly (the golden test's
 * largest problem has 300 stops). Plans are the same either way; CPU at fixed iterations
 * (`bin/routeplan solve … --max-iterations N --time-limit 600 --json` under `/usr/bin/time -f %U`,
 * this build and main interleaved, 3 rounds, load ~5.5–6.5 on 2 cores; identical plans each time):
 * X-n1001 at 1,000 iterations 5.40 s against 6.37 s (−15 %), X-n801 at 1,000 4.02 s against
 * 4.23 s (−5 %), GH R1_10_1 at 4,000 2.30 s against 2.46 s (−6 %), RC1_10_1 at 4,000 2.10 s
 * against 2.25 s (−7 %); at 2,000 iterations X-n1001 8.33 s against 9.78 s (−15 %), and X-n513,
 * just above the threshold (514 locations, a 1.06 MB matrix), 4.78 s against 4.88 s (−2 %, within
 * the noise: neutral there). The renumbering itself (a permuted copy of each matrix) costs a few
 * hundredths of a second at 1,000 locations: GH at 500 iterations (~1 s) was ~5 % slower with it.
 * In fresh 10 s processes under that load the iteration counts are too noisy to tell more (X-n1001
 * seed 0 2,111 against 1,861, seed 1 1,497 against 1,301, seed 2 1,403 against 1,518).
 */
export const LOCAL_ORDER_BY_DEFAULT = true;
export const LOCAL_ORDER_MIN_LOCATIONS = 500;
/**
 * Up to this many locations: measured from 514 to 1,001. On the 5,000-order / 500-route one-off the
 * permuted copies cost what issue 26 bounds there (fresh processes beside main, load ~5): its first
 * plan at `--time-limit 0.001` printed after 1.95 s against 1.62 s of wall (the bound is 2.0 s) and
 * RSS 536 MB against 345 MB, for 9,713 iterations against 8,301 in 10 s with no better plan
 * (8,357,655 m against 8,342,214 m). At 2,000 locations a matrix is a sixth of that one's.
 */
export const LOCAL_ORDER_MAX_LOCATIONS = 2_000;
/**
 * How near locations get near numbers: 'curve', a Hilbert curve over the coordinates (a greedy
 * nearest-neighbour chain over the matrix where the problem has none), or 'chain' always. Measured
 * alike on X-n1001 at 1,000 iterations (CPU as above, 3 rounds, load ~6, one plan): curve 4.98 s,
 * chain 5.05 s, main 5.91 s; the curve costs n log n, the chain reads the whole matrix once.
 */
export const LOCAL_ORDER_BY: 'curve' | 'chain' = 'curve';

// ── Construction (construct.ts, insertion.ts, instance.ts) ──────────────────────────────────

/**
 * From this many stops on, the greedy floor is built before the regret construction, so that a
 * plan shows at once while the regret construction takes its seconds; below, the regret goes
 * first and pays for the JIT's warm-up in a fresh process, and it and its first polish are made
 * whatever the clock (construct.ts, firstPlanIgnoresClock). On 1,000 stops the regret
 * construction takes some 0.1–0.3 s once compiled; on Solomon's 100, cold, some 35 ms and the
 * polish some 55 ms.
 */
export const FLOOR_FIRST_MIN_STOPS = 1000;
/*
 * The search from the floor rather than the regret plan on Gehring–Homberger 1000 (the floor has
 * fewer routes: R1_10_1 153 against 187) was worse, in process at 10,000 iterations, seed 0: R1_10_1,
 * R1_10_4, RC1_10_1, RC1_10_4 549,239 / 438,912 / 477,956 / 425,347 against 546,956 / 438,294 /
 * 475,144 / 424,056, ending with the same routes ±1: the search, not its start, sets the route count.
 */
/**
 * Ruin-and-recreate iterations that belong to the first plan below FLOOR_FIRST_MIN_STOPS, run
 * whatever the clock says (construct.ts, untimedIterationsOf). In process, on Solomon's 56 with
 * the JIT warm: the polished regret plan 7.1% above the best-known, 10 iterations 4.7%, 30 3.2%,
 * 100 1.9%; an iteration there takes some 2 ms.
 */
export const FIRST_PLAN_ITERATIONS = 30;
/**
 * …and at most this much work (search/work.ts) between them, so that the untimed part stays a
 * fraction of a second where iterations are slow: 30 iterations measured 0.23–0.69 M units on
 * Solomon's 56 (all kept), but 1.5 M on X-n143, 3.7 M on X-n513 and 4.2 M on X-n801 (one vehicle a
 * customer, long routes), where they ran `--time-limit 1` to 1.4–2.5 s of process wall.
 */
export const FIRST_PLAN_WORK = 800_000;
/**
 * Work (search/work.ts's units) of one look at a pending stop's entry by the regret construction's
 * bookkeeping, which the evaluator's and the inserter's counters do not see: after each insertion
 * every pending stop's entries are looked at, some stops² / 2 × entries a stop in all, where a stop
 * has an entry per near stop's route and per vehicle class (regret.ts). In fresh processes, load
 * 5–9: the generated 5,000 stops with 355 classes took 44 s, 2,000 with 153 classes 3.0 s, 1,000
 * with 85 classes 0.62 s: 9–13 ns a look, a fifth of the some 50 ns a unit of
 * CONSTRUCTION_WORK_PER_MS stands for. From FLOOR_FIRST_MIN_STOPS on, a construction whose looks
 * alone exceed its budget of work is not started (construct.ts): on the 5,000-stop one-off it ran
 * into the run's deadline at `--time-limit 10`, so the search made 0 iterations.
 */
export const REGRET_WORK_PER_ENTRY_LOOK = 0.2;
/** Regret of a stop with a single feasible route: above any real regret, so it is decided first. */
export const BIG_REGRET = 1e300;
/**
 * The regret construction prices a stop only in the routes of this many of its nearest stops
 * (and in one unused vehicle per class): on Solomon's 100 stops 10 reach the routes a stop
 * ends up in, and keep the construction within a few thousand insertions.
 */
export const REGRET_NEIGHBOURS = 10;
/** Insertion keys closer than this are equal: below the round-off of summed travel times. */
export const KEY_EPS = 1e-9;
/** Stand-in for an unbounded time in arithmetic that must stay finite (far above any real time). */
export const FAR = 1e15;

// ── Ruin and recreate (search/) ─────────────────────────────────────────────────────────────

/**
 * SISR's average number of removed stops per ruin (c̄ = 10 in Christiaens & Vanden Berghe). Larger
 * ruins are better per iteration on Solomon but not at equal time, their polish being longer: R1,
 * R2, RC1, RC2 (39) at 1,000 iterations in process, 15 gave 0.62 / 0.66 % against 0.77 / 0.82 %
 * (seeds 0 / 1), but in fresh processes at 2 s 0.88 % against 0.77 % (seed 0, 30 LS neighbours),
 * and with 15 LS neighbours 0.71 % (15) and 0.63 % (12) against 0.65 % (seed 3; load 4–6). SISR's
 * split strings (rate 0.5, depth 0.01) gave 1.19 / 0.85 % at 1,000 iterations: left out. Again at
 * 3,000 iterations in process (R1, RC1, RC2, seeds 0 / 1, load 4–6): 15 0.38 / 0.40 % against
 * 0.43 / 0.54 %, in 1.6× the time (2.7 s an instance against 1.6–1.8 s). Gehring–Homberger 1000
 * R1_10_1–5 and RC1_10_1–5 in fresh processes at 10 s, seed 0 only, one interleaved run beside
 * main 4c3d0a2 (load 5–8): 15 gave 3.60 % (8,686 iterations on average) against 3.51 % (14,985).
 * Again on the faster search of stop 40 (some 40,000 iterations an instance at 10 s), the same ten,
 * seeds 0 / 1 in one interleaved run each (load 1.6–3.9; an experiment build reading the value from
 * the environment, beside that build unchanged): 15 gave 2.84 / 2.75 % (23,000 iterations on
 * average) against 2.81 / 2.59 % (40,000). Smaller, 7, on the search of stop 41 (main 7f249e7
 * beside it, seeds 0 / 1, load 0.6–2.0): 2.54 / 2.62 % (94,000 iterations on average) against
 * 2.58 / 2.35 % (56,000).
 */
export const AVG_REMOVED = 10;
/**
 * …where windows do not bind, with the wider ruin (WIDER_RUIN_BY_DEFAULT, SolveOptions.widerRuin;
 * windowSettings, windowless.ts): there every candidate is polished by
 * a local search with SWAP*, and ten stops cut from long capacity-only routes (CVRP X: 7–25 stops a
 * route) mostly lead it back to the plan it came from. CVRP X's ten issue-26 instances in process at
 * fixed iterations (n143 3,000, n190 2,000, n237 3,000, n284 2,000, n331 2,000, n411 1,200, n513
 * 1,500, n641 700, n801 600, n1001 500: about 10 s at a load of 5), seeds 0 and 1, mean gap and
 * summed CPU (load 5–8): c̄ = 10 1.64 / 1.67 % (22–24 s), 20 1.06 / 1.23 % (44–45 s), 5 3.75 /
 * 4.02 % (6.7 s); at about equal CPU, with fewer iterations for the larger ruins: 20 at half of them
 * 1.40 / 1.46 % (22.5 s), 15 at 0.7 of them 1.61 / 1.60 % (24–29 s), 25 at 0.4 1.50 / 1.68 % (21–22 s),
 * 30 at 0.35 1.65 / 1.68 % (19–21 s). Seeds 2, 3 and 4 added (load 3–5): 20 at half the iterations
 * 1.80 / 1.60 / 1.53 %, 10 at all of them 1.52 / 1.65 / 1.79 % (21–25 s each): over the five seeds
 * 1.56 % against 1.65 %, better on four. In fresh processes at 10 s beside the build before (one
 * interleaved run per seed): WIDER_RUIN_BY_DEFAULT. Windowed problems keep AVG_REMOVED (not measured).
 */
export const AVG_REMOVED_WITHOUT_WINDOWS = 20;
/**
 * Whether the wider ruin (AVG_REMOVED_WITHOUT_WINDOWS) is on where windows do not bind when
 * SolveOptions.widerRuin is absent (`npm run bench -- --without wider-ruin` for the row without).
 * On: in fresh processes at 10 s on the ten issue-26 X instances beside the build before, one
 * interleaved run per seed (load 4–7), seeds 0–3: 1.25 / 1.36 / 1.49 / 1.34 % against 1.28 / 1.40 /
 * 1.40 / 1.65 % (mean 1.36 % against 1.43 %, better on three of four, with 1,600–2,600 iterations
 * on average against 3,000–5,000); in process 1.56 % against 1.65 % over five seeds (above).
 */
export const WIDER_RUIN_BY_DEFAULT = true;
/**
 * SISR's longest removed string (L^max = 10 in the paper). CVRP X (AVG_REMOVED_WITHOUT_WINDOWS's
 * measurement at half the iterations, ruin of 20, seeds 0 and 1): 20 gave 1.68 / 1.77 % (fewer,
 * longer strings; 18–19 s of CPU) against 1.40 / 1.46 % (22.5 s). Solomon at 3,000 iterations in
 * process, seeds 0 / 1 (load 4–6): R2 and RC2 (long routes, where it binds) 20 gave 0.49 / 0.69 %
 * against 0.48 / 0.46 %; R1, RC1, RC2 5 gave 0.61 / 0.83 % against 0.43 / 0.54 %.
 */
export const MAX_STRING = 10;
/**
 * SISR's blink rate: the chance an insertion position is skipped (β = 0.01 in the paper). CVRP X
 * (AVG_REMOVED_WITHOUT_WINDOWS's measurement at half the iterations, ruin of 20, seeds 0 and 1):
 * 0.05 gave 1.55 / 1.60 % against 1.40 / 1.46 %. Solomon R1, RC1, RC2 at 3,000 iterations in process,
 * seed 0 (load 4–6): 0 gave 0.59 %, 0.05 0.45 %, against 0.43 %.
 */
export const BLINK_RATE = 0.01;
/**
 * The blink rate where windows bind, from MORE_BLINKS_MIN_STOPS stops on, with the more blinks
 * (SolveOptions.moreBlinks, MORE_BLINKS_BY_DEFAULT; windowless.ts, blinkRate). On Gehring–Homberger
 * 1000 a ruin of 10 stops among 1,000 in tight windows mostly goes back where it was: in a fresh
 * 10 s process of RC1_10_1 (seed 0) 40 % of the candidates came back from the recreate with the
 * current plan's cost, before any polish, and on R1_10_1 52 % (34 % with AVG_REMOVED 15); a
 * skipped position sends a stop elsewhere. In process at 15,000 iterations (R1_10_1, R1_10_4,
 * RC1_10_1, RC1_10_4, seeds 0 / 1, load ~5), summed distance against BLINK_RATE's: 0.05 better in
 * all 8 runs, by 0.27 % on average (R1_10_1 546,204 / 543,750 against 547,645 / 546,375; RC1_10_1
 * 473,088 / 474,660 against 474,209 / 477,177), in 8 % more CPU (37.8 s against 35.0 s: fewer
 * candidates come back cheap to polish); 0.1 mixed (4 of 8 better) in 15 % more.
 */
export const BLINK_RATE_LARGE_WINDOWED = 0.05;
/*
 * Skipping the polish of such candidates instead (those that come back with the current plan's cost)
 * saved no CPU at equal iterations: their routes carry fresh stamps, so the next polish does the work.
 * In process at 10,000 iterations, seed 0, R1_10_1, R1_10_4, RC1_10_1, RC1_10_4: 2.98 / 3.58 / 3.02 /
 * 3.31 s against 3.03 / 3.32 / 2.82 / 3.11 s, and worse plans on 3 of the 4.
 */
export const MORE_BLINKS_MIN_STOPS = 1000;
/**
 * Whether the more blinks (BLINK_RATE_LARGE_WINDOWED) apply when SolveOptions.moreBlinks is absent
 * (`npm run bench -- --with more-blinks`). Off: better per iteration, not at equal time. Fresh
 * processes at 10 s on R1_10_1–5 and RC1_10_1–5 beside main 4c3d0a2 (this build with the rate
 * flipped, one interleaved run per seed): seed 0 (load 4–6) 3.48 % against 3.32 % (14,762 iterations
 * on average against 17,840), seed 1 (load 4–6) 3.36 % against 3.27 % (18,122 against 17,823),
 * seed 2 (quiet, load 2–3) 2.86 % against 2.73 % (32,946 against 35,665: some 8 % fewer iterations).
 * R1, seeds 0 / 1 / 2: 3.07 / 3.26 / 2.78 % against 3.17 / 3.39 / 2.64 %; RC1 3.89 / 3.47 / 2.94 %
 * against 3.46 / 3.15 / 2.82 %.
 * A rate of 0.03 on the faster search of stop 40 (some 40,000 iterations an instance), seeds 0 / 1
 * in one interleaved run each (load 1.6–3.9; an experiment build reading the rate from the
 * environment, beside that build unchanged): 2.60 / 2.68 % against 2.81 / 2.59 %.
 */
export const MORE_BLINKS_BY_DEFAULT = false;
/**
 * Nearest neighbours per stop for the ruin (strings are cut from routes near the seed) and for
 * the reinsertion in a large fleet: 40 reaches a few routes beyond the seed's own. Distance alone:
 * the ruin's strings cut near the seed in the local search's measure with the windows instead
 * (ls/neighbours.ts, granularNeighbours) gave, on Solomon R1, RC1, RC2 (R2 too for seeds 2, 3) at
 * 3,000 iterations in process, seeds 0–3 (load 4–5), 0.43 / 0.50 / 0.53 / 0.49 % against
 * 0.43 / 0.54 / 0.40 / 0.55 %: within the noise.
 */
export const NEIGHBOURS = 40;
/** How often the search hands control back (progress, abort): 20 times a second feels live. */
export const YIELD_EVERY_MS = 50;
/** Above this many routes, a removed stop only tries the routes of its nearest neighbours. */
export const GRANULAR_FLEET = 12;
/**
 * How many nearest neighbours' routes a removed stop tries in a large fleet (as do the greedy
 * insertion, construct.ts, and the fleet minimisation). More did not pay in the recreate (an
 * experiment build reading the value from the environment, beside main 7f249e7 in one interleaved
 * run of fresh processes a seed):
 * Gehring–Homberger 1000 R1_10_1–5 and RC1_10_1–5 at 10 s, seeds 0–3 (load 0.6–2.2), 30 gave
 * 2.37 / 2.30 / 2.56 / 2.56 % against 2.58 / 2.35 / 2.38 / 2.45 % (mean 2.45 % against 2.44 %),
 * 40 (every neighbour listed) 2.55 / 2.52 % at seeds 2 / 3; Solomon's 56 at 2 s, seed 0 (every run
 * stopping by itself), 30 0.30 %, 40 0.33 %, against 0.27 %.
 */
export const GRANULAR_NEIGHBOURS = 20;
/**
 * Annealing temperatures relative to the average cost of one arc of the first solution: at the
 * start a move one arc worse is taken often, at the end one a hundredth of an arc worse rarely.
 * On CVRP X an arc of the first polished plan is 48–113 distance units (X-n411 48, X-n1001 72,
 * X-n237 113), so this is SISR's T0 = 100 → Tf = 1 within a factor of two. CVRP X's ten issue-26
 * instances at fixed iterations (AVG_REMOVED_WITHOUT_WINDOWS's measurement), seeds 0 and 1, with
 * the ruin of 20: 0.5 → 0.005 arcs 1.59 / 1.61 %, 1 → 0.01 1.40 / 1.46 %, 3 → 0.03 1.90 / 1.80 %;
 * with the ruin of 10: 0.3 → 0.003 1.80 / 1.33 %, 1 → 0.01 1.64 / 1.67 %, 3 → 0.03 1.48 / 1.96 %.
 * Others gave no difference beyond the noise on Solomon's R1, R2, RC1, RC2 at 2 s in fresh
 * processes (load 4–6): 3 to 0.03 gave 0.58 % against 0.74 % (seed 4) and 1.24 % against 1.09 %
 * (seed 5), 10 to 0.1 1.34 % (seed 5), 0.3 to 0.01 0.85 % (seed 4). Solomon R1, RC1, RC2 at 3,000
 * iterations in process, seeds 0 / 1 (load 4–6): T_START 0.3 0.54 / 0.54 %, 3 0.59 / 0.58 %, against
 * 0.43 / 0.54 %. Gehring–Homberger 1000 R1_10_1–5 and RC1_10_1–5, where the clock leads the whole
 * cooling at 10 s (a run does some 30–160 M units of work, below coolWorkOf's 251 M), fresh processes,
 * seed 0 only, one interleaved run beside main 4c3d0a2 (load 5–8): T_START 0.3 3.74 %, 0.1 3.62 %,
 * against 3.51 % (some 15,000 iterations each); colder starts kept more routes on R1_10_1 (108
 * against 104). Hotter, T_START 3, seeds 0 / 1 (load 1.4–6): 3.13 / 3.20 % against 3.21 / 2.99 %.
 * On the faster search of stop 40 (some 40,000 iterations an instance), seeds 0 / 1 in one
 * interleaved run each (load 1.6–3.9; an experiment build reading the value from the environment,
 * beside that build unchanged): T_START 2 2.64 / 2.77 % against 2.81 / 2.59 %. At 120 s on 2
 * threads, R1_10_1 and RC1_10_1 (fresh processes beside main 8434128, the same kind of experiment
 * build, load 1.3–2.1), T_START 2, seeds 19–21: 1.35 / 1.37 / 1.42 % against 1.19 / 1.23 / 1.12 %,
 * worse on both instances each time; colder, T_START 0.5, seeds 22 / 23: 1.36 / 1.26 % against
 * 1.08 / 1.15 %.
 */
export const T_START = 1;
export const T_END = 0.01;
/**
 * By default the search stops once it stalls (stop/plateau.ts), counting iterations and work
 * (search/work.ts), never time, so that a seed gives one plan on a busy machine too: this many
 * iterations in a row without a better plan at least, …
 */
export const PLATEAU_MIN_ITERATIONS = 50;
/**
 * …over this much work at least, more on larger problems (per stop), … Before, the stall was
 * 1,000 iterations (10 per stop) and a share of the time: work makes it as long on a problem whose
 * iterations are slow (plain-30.json: no windows, a local search of ~20,000 units an iteration,
 * which ran its 5 s limit out) as on one whose iterations are quick (bakery.yaml, ~800 units).
 * 80,000 a stop is some 1,000 iterations on Solomon's 100 stops and 2,500 on bakery.yaml, as
 * before. Bakery, seeds 0–9: mean working time 13,497 s (before 13,493 over seeds 0–5).
 */
export const PLATEAU_MIN_WORK = 200_000;
export const PLATEAU_WORK_PER_STOP = 80_000;
/**
 * …up to this many stops; beyond, the work per stop grows with √(stops / 25), as an iteration's
 * work does. With 80,000 a stop flat, Solomon's 100 stops stalled at 2 s after some 1,000
 * iterations (45 of 56 runs ended early) at a 0.60% mean gap, against 0.48% for the old stall,
 * which searched the whole 2 s.
 */
export const PLATEAU_SCALE_STOPS = 25;
/** …and this share of the work the best plan took to find. */
export const PLATEAU_WORK_SHARE = 0.25;
/**
 * With the stall stop, the temperature cools over this much work (search/accept.ts), more on
 * larger problems, or by the clock over what is left of the limit when the clock is further along:
 * where the machine does this work within the limit the plan depends on work alone, and a short
 * limit still ends cooled (issue 26's figures on 10 Solomon instances at 2 s: 0.52 % cooling by
 * work alone, 0.39 % by the clock). Three times the work where windows bind (an experiment build
 * reading the factor from the environment, beside main 7f249e7, fresh processes): Solomon's R101,
 * R105, R109, R201, R205, RC101, RC105, RC201, RC205, C101 at 30 s, seed 0 (load 2–2.5), 0.06 %
 * against 0.05 % (4.8 s of wall against 2.6 s; RC101 and RC105 kept 16 routes where the ejection
 * pool's second search had found the best-known 15).
 */
export const COOL_MIN_WORK = 500_000;
export const COOL_WORK_PER_STOP = 100_000;
/**
 * From this share of the way to the deadline on, the clock may lead the cooling (search/accept.ts).
 * A clock-led cooling reaches the end temperature at the deadline: ending it sooner, for a cold
 * tail, did not pay where the clock leads at 10 s (CVRP X-n641, n801, n1001). In process at 1,000,
 * 800 and 600 iterations, the iteration schedule ending at 75 % or 50 % of them, seeds 0 / 1 (load
 * 5–8): to the end 1.72 / 1.64 % mean gap, 75 % 1.84 / 1.95 %, 50 % 1.92 / 1.90 %, at the same CPU
 * (17–19 s); in fresh processes at 10 s beside it, one interleaved run per seed (load 4–8), 75 %
 * 1.87 / 2.14 % against 1.65 / 2.43 %, 50 % 1.84 % against 1.65 % (seed 0), 85 % 2.43 % against
 * 2.43 % (seed 1). Half the start temperature (T_START 0.5) there: 1.62 / 1.71 % in process, 1.82 /
 * 2.58 % in fresh processes: within the noise.
 */
export const CLOCK_LEADS_FROM = 0.1;
/**
 * With the longer cooling (SolveOptions.longerCooling, LONGER_COOLING_BY_DEFAULT), where windows do
 * not bind, from COOL_LONGER_MIN_STOPS stops on, the cooling's work (coolWorkOf) is this many times
 * as long (windowless.ts, coolWorkFor): an iteration there (SWAP*, long
 * capacity-only routes) does far more work than on the windowed 200-stop project COOL_WORK_PER_STOP
 * was measured on, so the cooling covered few iterations, and at 10 s CVRP X-n143 … n331 stopped by
 * themselves at 3–7 s, X-n190 stuck at 1.80 % and X-n284 at 2.07 % (seed 1); in process with the
 * schedule over 2,500 iterations instead X-n190 reached 0.47 %. Fresh processes at 10 s, the five
 * smallest of issue 26's ten, seed 1, one interleaved run (load 6–8): as before 1.03 % (2,037
 * iterations on average, 6.1 s of wall), 3× 0.91 % (3,381, 8.8 s), 6× 0.60 % (3,002, 8.6 s; X-n190
 * 0.19 %, X-n284 1.10 %). Such a search is then mostly clock-led at 10 s (it runs to its deadline).
 * Below 100 stops not: plain-30.json (30 stops, no windows) must end by itself within 1 s.
 * 9×, not 6×, since the same plans cost 8–21 % fewer instructions (stop 38): the faster search ended
 * its work-led cooling sooner and stopped by itself on the five smallest of the ten again (X-n284 at
 * 8.4–8.7 s) with no better plans. Fresh processes at 10 s, one interleaved run a seed beside 6×:
 * X-n143, n190, n237, n284, n331, seeds 0–3 (load 1.0–1.4): 0.67 / 0.71 / 0.76 / 0.61 % against
 * 0.68 / 1.03 / 0.82 / 0.96 % (better on every seed); X-n411, n513, n641, n801, n1001 (clock-led
 * either way), seeds 0–3 (load 1.1–2.3): 1.00 / 0.96 / 1.20 / 1.01 % against 1.19 / 1.06 / 1.15 /
 * 0.91 %, and seeds 0 / 1 of an earlier run 1.05 / 1.10 % against 0.94 / 1.13 %: the same within
 * one run's noise, so one factor for every size.
 * The stall that stops such a search grows by the same factor (windowless.ts, stallLimitsFor): with
 * the stall of the shorter cooling X-n143 and X-n190 stopped by themselves at 2–4 s of 10, a third
 * of the way through their cooling (X-n143, seed 1: 64 M units of work done of 197 M, 27 M of them
 * without a better plan), still warm, X-n190 at 1.5–1.8 %. Fresh processes at 10 s, one interleaved
 * run a seed beside the stall as it was (load 1.3–2.8): X-n143, n190, n237, n284, n331, seeds 0–3,
 * 0.44 / 0.58 / 0.44 / 0.34 % against 0.67 / 0.85 / 0.90 / 0.75 % (X-n190 0.39 / 1.52 / 0.29 / 0.22 %
 * against 1.62 / 1.81 / 1.78 / 0.54 %; X-n143 stopping by itself at 8–10 s, 0.17 % each time).
 */
export const COOL_WORK_FACTOR_WITHOUT_WINDOWS = 9;
export const COOL_LONGER_MIN_STOPS = 100;
/**
 * Whether the longer cooling is on when SolveOptions.longerCooling is absent. On: fresh processes at
 * 10 s on the five smallest of issue 26's ten X instances (X-n143, n190, n237, n284, n331), beside
 * the build without it, one interleaved run per seed: seed 1 (load 6–8) 0.60 % against 1.03 %, seed
 * 2 (load 4–7) 1.16 % against 1.74 % (better on all five), seed 0 (load 5–6, both mostly cut by
 * the clock) 1.10 % against 0.99 % (with X-n411 1.69 % against 1.71 % and n513 1.37 % against
 * 1.58 %); mean over the three 0.95 % against 1.25 %. From X-n641 on the clock leads the cooling at
 * 10 s either way. A problem without windows of 100 stops or more then mostly runs to its limit
 * (clock-led) where it stopped by itself before; windowed problems (the 200-stop project, the
 * bakery) and plain-30.json (30 stops) are unchanged.
 */
export const LONGER_COOLING_BY_DEFAULT = true;
/**
 * Beyond this many stops the cooling's work per stop grows with (stops / COOL_SCALE_STOPS)^¼, as an
 * iteration's work grows with the size. A 200-stop project (generate-large --seed 1), seeds 0–5,
 * cooled over 14.6 M and then held at the end temperature to 28 M of work: mean working time 204,789 s;
 * cooled over 25 M to the same 28 M: 200,904 s; over 50 M to 55 M: 198,519 s. Cooling is where the
 * work pays, not the cold tail after it.
 */
export const COOL_SCALE_STOPS = 25;
/**
 * After its cooling, a search holds the end temperature for at most this share of the cooling's
 * work, improving or not: on 200 stops the cold tail kept finding small improvements and so never
 * stalled within 5 s, although the work pays in the cooling (COOL_SCALE_STOPS).
 */
export const COOL_TAIL_SHARE = 0.25;
/**
 * …or, where the limit is longer, until the work of this many units a millisecond of the limit
 * (WORK_UNITS_PER_MS: 3,000–16,000 by problem): where the limit leaves room, the cold tail goes on
 * while it improves (CVRP X at 10 s: X-n237 0.12 % with it, 0.70 % cut at a quarter of its
 * cooling), and where it does not, a search that keeps finding small improvements still ends by
 * itself within the limit (200 stops at the default 5 s: 42 M units, some 2.6 s).
 */
export const COOL_HORIZON_UNITS_PER_MS = 8000;
/**
 * Work in a millisecond of one thread on this 2-core machine: the geometric mean over plain-30,
 * bakery and six Solomon instances at a 2 s limit (1,900–4,900 by instance; a 200-stop project
 * with long routes does some 16,000). It turns a time limit into the work an exact polish and the
 * final prize pass may take.
 */
export const WORK_UNITS_PER_MS = 3000;
/**
 * Weights of the units of work (search/work.ts), from a least-squares fit of the search time on
 * the same eight runs: a stop walked by the exact evaluator or an insertion position priced by
 * the summaries 1 (some 0.3 µs), a move priced by the local search 3, a stop paired with a
 * neighbour (up to six operators tried) 5.
 */
export const WORK_PER_PRICED_MOVE = 3;
export const WORK_PER_PAIR = 5;
/**
 * The first time the search stalls it cools again from the start temperature (from the plan it
 * is at) instead of stopping; it stops at the next stall. The bakery fixture, seeds 0–9: without a
 * reheat 8 of 10 plans came within 0.5% of the 10 s plan (three stuck up to 2% above it), with one
 * 10 of 10, mean +0.08%, in 0.45 s of search instead of 0.28 s.
 * Solomon's 56 at 2 s in fresh processes, seed 0, one interleaved run (load 1.1–2.2; an experiment
 * build reading these from the environment, beside main 829d5cc): two reheats 0.26 % against 0.27 %,
 * with 43 of 56 runs then cut by the clock (1.85 s of wall against 1.50 s); reheating from the best
 * plan instead of the current one 0.31 %; both 0.29 %; two reheats from a third of the start
 * temperature 0.29 %. Nor does the time left after the stop: `--full-time` (clock-led cooling over
 * the whole 2 s, beside main 7f249e7, seed 0, load 0.6–1.3) gave 0.26 % against 0.27 % (8,900
 * iterations on average against 4,800, every run of main stopping by itself at some 1.2 s).
 */
export const STALL_REHEATS = 1;
/**
 * With `--full-time` (restart-at-stall.ts), another search starts after one stops by itself while this
 * share of the time that one took is left at least: a search with less can hardly reach its plan.
 * Solomon's 56 at 2 s in fresh processes, one interleaved run a seed beside main 5476656 without
 * and with its `--full-time` (one search cooled by the clock over the whole limit), load 1.5–2.0:
 * seed 0 0.20 % against 0.27 % and 0.24 %, seed 1 0.19 % against 0.25 % and 0.33 % (7,500
 * iterations on average against 4,800 and 7,900; 1.8 s of wall against 1.25 s and 1.9 s).
 * Solomon's R101, R105, R109, R201, R205, RC101, RC105, RC201, RC205 and C101 at 30 s, seed 0 (load
 * 1.0–1.4): 0.00 % (every best-known plan) against 0.05 % and 0.01 %. The share itself was not
 * compared with others.
 */
export const FULL_TIME_RESTART_SHARE = 0.5;
/**
 * Only problems up to this many stops reheat: on larger ones a second cooling would double a search
 * whose first one already takes seconds, and run it past the limit.
 */
export const REHEAT_MAX_STOPS = 100;
/**
 * From this many stops up to REHEAT_MAX_STOPS, where windows bind, a search that stops by itself is
 * followed by one more from its own first plan under a new seed, and the better plan wins
 * (restart-at-stall.ts): a second independent search finds more than the same time spent on one
 * (FULL_TIME_RESTART_SHARE's runs: one search cooled over the whole 2 s 0.24 / 0.33 %, a second
 * reheat 0.26 %, STALL_REHEATS), and on these problems its time is a second or two. Below, the bakery
 * (25 stops) and plain-30.json answer in well under a second (0.6 s of a 1.0 s target, of which
 * the search is some 0.3–0.4 s: one more would reach the target) and have less to find.
 * Solomon's 56 at 2 s in fresh processes, one interleaved run a seed beside main 4c0802f (one
 * search; load 1.1–1.9): seeds 0 / 1 / 2, 0.19 / 0.19 / 0.20 % against 0.27 / 0.25 / 0.34 %, most
 * second searches cut by the limit (1.94 s of wall against 1.28 s).
 */
export const RESTART_MIN_STOPS = 50;
/** Whether that restart is on when SolveOptions.restartAtStall is absent. */
export const RESTART_AT_STALL_BY_DEFAULT = true;
/** Without a time or iteration limit, the temperature cools over this many iterations. */
export const UNLIMITED_SCHEDULE_ITERATIONS = 100_000;
/**
 * Share of the search time one local search may take when moves are priced exactly (O(route) a
 * move): more would leave too few ruin-and-recreate iterations on large problems.
 */
export const EXACT_POLISH_SHARE = 0.02;

/** How the reinsertion orders the removed stops after priority (SISR's sort keys, plus windows). */
export type SortKey = 'random' | 'demand' | 'far' | 'close' | 'window';
/**
 * Drawn uniformly, so repetitions are weights: SISR's random 4, demand 4, far 2, close 1, and
 * tightest window first once, for time-windowed problems. Tightest window first four times of 15:
 * Solomon R1, RC1, RC2 at 3,000 iterations in process, seeds 0 / 1 (load 5), 0.52 / 0.44 % against
 * 0.43 / 0.54 %: within the noise.
 */
export const SORT_KEYS: readonly SortKey[] = [
  'random',
  'random',
  'random',
  'random',
  'demand',
  'demand',
  'demand',
  'demand',
  'far',
  'far',
  'close',
  'window',
];

// ── Local search (ls/) ──────────────────────────────────────────────────────────────────────

/**
 * Neighbour lists are built for this many stops at once, so that reading the matrix both ways
 * stays within a few cache lines of one row (instance.ts, ls/neighbours.ts).
 */
export const NEIGHBOUR_TILE = 32;
/** Size of the granular neighbourhood: HGS uses 20–40; 30 balances reach against pass time. */
export const LS_NEIGHBOURS = 30;
/**
 * From this many stops on, the local search pairs each stop with FEW_LS_NEIGHBOURS neighbours
 * instead of LS_NEIGHBOURS (SolveOptions.fewLsNeighbours). On Gehring–Homberger 1000 the
 * polish after each ruin and recreate took 80% of a 10 s run (cpu profile of R1_10_1, a fresh
 * process: 1,500–3,200 iterations, the best plan still improving at the end); the stops it looks
 * at are those of the changed routes and those that count them among their neighbours, so their
 * number and the pairs each tries both grow with the neighbours. At equal iterations (1,500,
 * R1_10_1, RC1_10_1, R1_10_4, RC1_10_4, in process, seed 0) 30 and 15 neighbours gave the same
 * mean gap (4.65%) in 18.7 and 8.3 s of CPU; at about equal CPU 30 neighbours and 1,500
 * iterations gave 4.65% (18.7 s), 15 and 3,000 4.21% (15.8 s), 10 and 4,000 3.80% (15.5 s), 7 and
 * 6,000 3.66% (14.6 s), 5 and 8,000 4.08% (15.0 s). Solomon's 100 stops keep 30.
 * Not on ../shared/cases/multi-1000.json (a project with two load dimensions, window starts, types
 * and breaks; 68 routes), where 10 neighbours cost far more than they gain. In process at 10 s (one
 * run each, load 1.5–1.8): 10 neighbours 404.2 working hours in 16,168 iterations, 20 373.5 h
 * (10,933), 30 365.1 h (10,646); at 3,000 iterations 413.1, 360.5 and 353.1 h. Fresh processes at
 * 10 s beside the build before: 396.8 h against 362.2 h. FEW_LS_NEIGHBOURS_BY_DEFAULT says which
 * property of the problem decides it.
 * 7 again on the faster search of stop 41 (GRANULAR_NEIGHBOURS's runs, seeds 0 / 1): 2.35 / 2.52 %
 * (67,000 iterations on average) against 2.58 / 2.35 % (56,000); with 30 neighbours' routes in the
 * recreate too, seeds 2 / 3: 2.49 / 2.42 % against 2.38 / 2.45 %. Within one run's noise.
 */
export const FEW_LS_NEIGHBOURS_MIN_STOPS = 1000;
export const FEW_LS_NEIGHBOURS = 10;
/**
 * Whether FEW_LS_NEIGHBOURS apply from FEW_LS_NEIGHBOURS_MIN_STOPS on when SolveOptions.fewLsNeighbours
 * is absent, where windows bind and moves are priced by the segment summaries (fewNeighboursPay in
 * ls/local-search.ts): the pricing decides how often the search polishes (search/polish.ts). By
 * summaries (Gehring–Homberger) every candidate is polished, the polish is most of an iteration and
 * fewer neighbours buy 2–4× the iterations; priced exactly (multi-1000: breaks, a duration per
 * vehicle) only a new best is, so fewer neighbours bought 1.3× the iterations and cost the polish
 * its reach. Measured by taking one property at a time out of multi-1000 (fresh processes at 10 s,
 * seed 0, 30 against 10 neighbours, one run each, load 4–7; working hours): as it is 368.5 against
 * 405.5; without types 346.9 / 384.8; one load dimension 322.4 / 343.9; without breaks 347.6 /
 * 384.2; distance as the objective 444.4 / 466.6; without priorities 386.8 / 431.8: no feature
 * of the project alone made 10 neighbours pay, while all of these stayed priced exactly. Twice the
 * capacity (all 1,000 served) 254.1 / 251.2 and twice the fleet 257.1 / 261.6: even where the fleet
 * has room, exact pricing gave no gain to take. Gehring–Homberger 1000 in fresh processes at 10 s
 * (R1_10_1, R1_10_4, RC1_10_1, RC1_10_4, load 6–7): 30 neighbours 3.63 / 4.34 / 5.38 / 3.74 % in
 * 1,551–2,917 iterations, 10 3.69 / 3.52 / 4.37 / 3.28 % in 3,929–7,538 (mean 4.27 % against 3.71 %).
 */
export const FEW_LS_NEIGHBOURS_BY_DEFAULT = true;
/**
 * Whether, with FEW_LS_NEIGHBOURS from the size rule, the polish after a ruin and recreate examines
 * only the stops of the changed routes, not also every stop that counts one of them among its
 * neighbours (ls/local-search.ts, examinesChangedRoutesOnly): the moves still pair them with all
 * their neighbours, in any route. On Gehring–Homberger 1000 the polish is some 75 % of a 10 s run
 * with 10 neighbours (cpu profile of R1_10_1, fresh process: 73 % in polishedObjective, 66 % pricing
 * moves in tryPair; recreate 14 %, the first plan 2 %). Fresh processes at 10 s, seed 0, interleaved
 * with the build without it: R1_10_1, R1_10_4, RC1_10_1, RC1_10_4 (load 3.3–4.7) 2.93 % against
 * 3.11 % (17,681 iterations on average against 10,639); R1_10_1–5 and RC1_10_1–5 (load 3.3–6.0)
 * 3.84 % against 4.00 % (better on 7 of 10; 8,597 iterations against 6,218). Small beside the
 * noise of one seed, but the same way in both runs.
 */
export const CHANGED_ROUTES_ONLY_WITH_FEW = true;
/**
 * Whether, where windows do not bind, from FEW_LS_NEIGHBOURS_MIN_STOPS stops on, the polish after a
 * ruin and recreate likewise examines only the stops of the changed routes (windowless.ts,
 * changedRoutesOnlyWithoutWindows; SolveOptions.changedRoutesOnly, `--without changed-routes-only`).
 * On CVRP X-n1001 (15 neighbours, SWAP*) the polish is 90 % of a 10 s run (cpu profile of a fresh
 * process, seed 0: the moves' pairs 45 %, SWAP* 36 %, a quarter of the run pricing its insertion
 * places; the recreate 3 %) and iterations are few (748 on a quiet machine). In process at equal
 * work (80 M units, seeds 0 / 1 / 2, load 6–7): 2.46 / 2.33 / 2.99 % against 2.93 / 2.92 / 2.61 %
 * (438 / 492 / 385 iterations against 359 / 332 / 358). Fresh processes at 10 s beside main, one
 * interleaved run per seed (load 8–10): 2.50 / 2.78 / 2.92 % against 3.01 / 3.01 / 3.70 % (421 /
 * 348 / 239 iterations against 226 / 256 / 230). Below 1,000 stops not shown to pay (in process at
 * 80 M units, seeds 0 / 1): X-n801 1.01 / 0.93 % against 0.89 / 1.19 %, X-n641 1.93 / 1.74 %
 * against 1.41 / 1.71 %.
 */
export const CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS = true;
/**
 * The granular neighbourhood where windows do not bind (windowsBind, where SWAP* runs; decided with
 * the other such settings in windowless.ts): SWAP*
 * already pairs stops of routes near each other, and a narrower list makes each pass cheaper
 * (HGS-CVRP uses 20). CVRP X's ten issue-26 instances at 10 s, fresh processes in one interleaved
 * run (load 6–8): 30 neighbours 2.19 % (808 iterations on average), 20 1.84 % (1,407), 15 1.76 %
 * (1,756); at equal iterations 15 and 20 came out alike (X-n284, n513, n801, n1001: two each way)
 * and both ahead of 30 on three of the four. A second run on X-n190, n284, n513, n801 and n1001
 * (load 6.5–7): 10 neighbours 2.06 %, 15 2.10 %, 20 2.16 %, within the noise. With the ruin of 20
 * (AVG_REMOVED_WITHOUT_WINDOWS's ten instances at half its iterations, seeds 0 and 1, mean gap and
 * summed CPU): 10 1.63 / 1.87 % (18–19 s), 15 1.40 / 1.46 % (22.5 s), 20 1.49 / 1.57 % (28–30 s).
 * Windowed problems keep LS_NEIGHBOURS (not measured).
 */
export const LS_NEIGHBOURS_WITHOUT_WINDOWS = 15;
/**
 * The granular neighbourhood where windows bind, below FEW_LS_NEIGHBOURS_MIN_STOPS stops
 * (lsNeighboursOf): the polish after each ruin and recreate is most of an iteration's time, and
 * half the neighbours nearly halve it at no visible cost per iteration. Solomon's R1, R2, RC1 and
 * RC2 (39 instances), in process at 1,000 iterations, seeds 0 and 1 (load 5–7): 30 neighbours
 * 0.64 / 0.86 % mean gap in 1.57 / 1.59 s an instance, 15 0.63 / 0.70 % in 0.84 / 0.98 s, 10
 * 0.74 / 0.67 % in 0.76 / 0.71 s. Fresh processes at `--time-limit 2`, interleaved (load 5–7),
 * mean gap and iterations: seed 1, 30: 1.88 % (402), 20: 1.53 % (531), 15: 1.23 % (764), 10:
 * 1.14 % (1,012); seed 2, 30: 0.92 % (834), 15: 0.86 % (1,465), 10: 0.79 % (1,834). 15 rather
 * than 10: as good per iteration, and longer runs do more of them. Not so over the 30 iterations
 * of a first plan (FIRST_PLAN_ITERATIONS): at `--time-limit 0.1`, all 56, fresh processes, seeds
 * 0 and 1, 3.35 / 3.51 % against 2.89 / 3.13 % for 30 (0.36 / 0.42 s of
 * wall against 0.40 / 0.51 s), so a first plan's polish and
 * iterations keep LS_NEIGHBOURS (firstPlanNeighboursOf, LocalSearch.narrow): 3.17 % (seed 1) in
 * 0.40 s of wall. From FEW_LS_NEIGHBOURS_MIN_STOPS on, windowed problems
 * keep LS_NEIGHBOURS: on multi-1000.json 20 neighbours cost 2 % of working time against 30
 * (FEW_LS_NEIGHBOURS). Again after the shared pair filter (ls/moves/pair-arcs.ts), Solomon's 56 at
 * `--time-limit 2`, fresh processes, seed 0, one interleaved run (load 8–11): 15 1.57 % (347
 * iterations on average), 10 1.80 % (406), main 927315a 1.73 % (253).
 */
export const LS_NEIGHBOURS_UNDER_WINDOWS = 15;
/** Stops examined between two clock reads: a clock read costs about as much as a cheap move. */
export const DEADLINE_CHECK_EVERY = 64;
/**
 * SWAP* (ls/moves/swap-star.ts) prices every pair of two routes on arcs, then this many of the
 * cheapest with the move evaluator (windows, shifts, capacity): on time-windowed problems the
 * cheapest arc change is often late somewhere, and a few more tries find one that is not.
 */
export const SWAP_STAR_CANDIDATES = 4;
/**
 * The search's candidates get SWAP* only when, polished by the other moves, they are at most this
 * share above the best plan's cost (search/polish.ts): on every candidate it halved the iterations
 * of Solomon's instances at 2 s. On CVRP X-n190, n284, n513, n801 and n1001 at 10 s (fresh
 * processes, one interleaved run, load 4–5.5, with SWAP*'s cache and 15 neighbours): 0.5 % gave
 * 1.80 %, 1 % 1.72 %, 3 % 1.76 %. With the ruin of 20 (AVG_REMOVED_WITHOUT_WINDOWS's ten instances at
 * half its iterations, seeds 0 and 1, mean gap and summed CPU): 0.3 % 2.06 / 1.88 % (17–19 s), 1 %
 * 1.40 / 1.46 % (22.5 s), 3 % 1.63 / 1.66 % (27–29 s).
 */
export const SWAP_STAR_NEAR_BEST = 0.01;
/**
 * Whether SWAP* is on by default where windows bind (swap-star.ts; windowsBind, ls/windows-bind.ts), its insertion
 * places then priced by the segment summaries. Off: on Solomon's R101, R105, R109, R201, R205,
 * RC101, RC105, RC201, RC205 and C101 at 1,000 iterations in process it gave the same 0.33 % mean
 * gap as without it in 1.9× the time (`--with swap-star`, load 7–8), and at 2 s in fresh processes
 * 1.72 % (147 iterations on average) against 1.05 % (208) without it (one interleaved run, load 8).
 * Again on the faster search of stop 40, Solomon's 56 at 2 s in fresh processes, seed 0 (load
 * 0.8–1.7; `--with swap-star` beside the build without): 0.30 % (3,987 iterations) against 0.27 %
 * (4,807), every run stopping by itself either way.
 */
export const SWAP_STAR_UNDER_WINDOWS = false;
/**
 * Work units (search/work.ts) of one insertion place SWAP* prices by the segment summaries:
 * four concatenations and a finish, some five arc prices.
 */
export const WORK_PER_SUMMARY_PLACE = 5;
/**
 * SWAP* pairs a changed route with the routes that hold one of the first this many granular
 * neighbours of its stops (the route-overlap pruning, where HGS compares polar sectors); where
 * windows do not bind the local search lists 15 (LS_NEIGHBOURS_WITHOUT_WINDOWS), so 15 there.
 * Cheaper SWAP* did not pay on CVRP X-n641, n801, n1001 (1,000, 800, 600 iterations in process,
 * seeds 0 / 1, mean gap and summed CPU, load 5–8): 15 (as is) 1.72 / 1.64 % (19.5 / 19.6 s), 8
 * 1.80 / 1.96 % (19.4 / 18.4 s), 5 1.88 / 1.73 % (16.0 / 19.1 s); one SWAP* pass per polish
 * instead of one at each local optimum of the other moves 2.00 / 2.17 % (15.0 / 14.7 s), two
 * 1.95 / 1.61 % (16.6 / 18.0 s). Nor did reading its arc prices along the rows of the symmetric
 * matrix (the same plans): X-n1001's 300 iterations took 4.8 / 4.6 s of CPU against 4.6 / 4.2 s as
 * read now (two runs each, load 8). Its insertion pricing (insertion-cache.ts) misses are all new route versions
 * (X-n1001, 100 iterations: 481,000 misses of 661,000 reads, none for a version priced before),
 * some 107,000 positions an iteration, a quarter of the run.
 */
export const SWAP_STAR_PARTNER_NEIGHBOURS = 30;
/**
 * Whether SWAP* also pairs a changed route with the routes whose polar sectors around the depot
 * overlap its own (SolveOptions.swapStarSectors, ls/moves/sectors.ts: HGS-CVRP's pruning). Off:
 * CVRP X's ten issue-26 instances in process at half the iterations of AVG_REMOVED_WITHOUT_WINDOWS's
 * measurement, with its ruin of 20, seeds 0 and 1 (mean gap, summed CPU; load 5–6): the neighbours'
 * routes alone (the default) 1.40 / 1.46 % (22.5 s); overlapping sectors instead of them 1.66 / 1.68 %
 * (23.5–23.9 s); routes both near and overlapping 1.62 / 1.72 % (22.4–22.7 s); either (this option)
 * 1.48 / 1.35 % (28.4 / 23.2 s): no gain for more work.
 */
export const SWAP_STAR_SECTORS_BY_DEFAULT = false;
/**
 * Whether, where windows do not bind, from SWAP_STAR_NEAR_ONLY_MIN_STOPS stops on, SWAP* trades a
 * stop only into a route that holds one of its granular neighbours (the first
 * SWAP_STAR_PARTNER_NEIGHBOURS of the local search's; windowless.ts, swapStarNearOnlyWithoutWindows;
 * SolveOptions.swapStarNearOnly, `--without swap-star-near-only`): a stop with none there is not
 * priced into that route. Pricing the places (insertion-cache.ts) was still 31 % of a fresh X-n1001
 * run at 10 s with CHANGED_ROUTES_ONLY_WITHOUT_WINDOWS (SWAP* 44 %), its time the matrix reads'
 * cache misses. Fresh processes at 10 s beside the build without it (one interleaved run a seed):
 * X-n1001, seeds 0 / 1 / 2 (load 5–6): 2.23 / 2.46 / 2.64 % against 2.34 / 2.62 / 2.71 % (1,015 /
 * 1,146 / 958 iterations against 598 / 964 / 535); from 400 stops on, X-n411, n513, n641, n801,
 * seeds 0 / 1 (load 5–7): 1.78 / 1.20, 0.99 / 1.57, 1.42 / 1.44, 0.92 / 0.92 % against 1.50 / 1.06,
 * 1.20 / 1.58, 1.88 / 1.42, 1.16 / 1.32 % (mean 1.28 / 1.28 % against 1.43 / 1.35 %, 1.2–2× the
 * iterations): X-n411 worse with both seeds, so from 500 stops on.
 */
export const SWAP_STAR_NEAR_ONLY_WITHOUT_WINDOWS = true;
export const SWAP_STAR_NEAR_ONLY_MIN_STOPS = 500;
/**
 * Whether, where windows do not bind, from CHANGED_STOPS_ONLY_MIN_STOPS stops on, the local search
 * skips a pair of stops (u, x) when neither stop's surroundings (its route, the stops before and
 * after it, CHANGED_STOPS_LOAD_RULE) changed since u was last examined (ls/changed-stops.ts, FILO's
 * selective vertex caching on the stop level; windowless.ts, changedStopsOnlyWithoutWindows;
 * SolveOptions.changedStopsOnly, `--with changed-stops-only`). Off: cheaper, but worse per
 * iteration, and no better at 10 s. In process at 1,500 iterations on CVRP X-n190, n331, n513, n801
 * and n1001, seeds 0 / 1 / 2 (load 4), without the load rule: mean gap 1.24 / 1.73 / 1.27 % against
 * 1.31 / 1.48 / 1.30 % without the lever, in 14–23 s of summed time against 23–31 s (with the
 * load rule, seed 0: 17 s). Fresh processes at 10 s beside main (5e6f986), one interleaved run
 * each: without the load rule, seed 0 (load 3.9–4.6), the five 1.23 % against 1.03 % (4,754
 * iterations on average against 3,031; X-n1001 2.36 % against 2.25 % with 1,839 against 1,239);
 * with it, X-n513, n801, n1001, seeds 0 / 1 (load 4.1): 1.33 / 1.36 % against 1.14 / 1.36 %,
 * X-n1001 2.34 / 2.44 % against 2.09 / 2.14 %. The pairs it skips are where a route's room or a
 * far arc opened a move: the route-level test's re-pairing is not waste on capacity-bound routes.
 */
export const CHANGED_STOPS_ONLY_WITHOUT_WINDOWS = false;
export const CHANGED_STOPS_ONLY_MIN_STOPS = 100;
/**
 * Whether the polish after a ruin and recreate lets routes exceed their capacity at a penalty a
 * unit of excess, where windows do not bind (search/penalised-polish.ts, HGS-CVRP's penalised local
 * search; SolveOptions.penalisedCapacity, `--with penalised-capacity`), from
 * PENALISED_CAPACITY_MIN_STOPS stops on: routes pass through overloaded states, and a plan still
 * overloaded at its local optimum is repaired at a penalty PENALISED_CAPACITY_REPAIR_FACTORS times
 * as high, or put back for the feasible polish. Off: on a quiet machine it did not pay, and what it
 * gains is X-n190 alone, for a third to a tenth of the iterations (see the last runs below).
 * The ten issue-26 X instances at 10 s in fresh processes beside main 4c3d0a2 (`--process --no-warm
 * --baseline`), one interleaved run a seed, this build with PENALISED_CAPACITY_MAX_STOPS: seed 1 (load
 * 5.6–6.2) 1.02 % mean gap against 1.21 % (X-n143, n190, n237, n284, n331: 0.91 / 0.33 / 0.69 /
 * 1.49 / 0.39 % against 1.08 / 1.79 / 0.03 / 1.62 / 0.51 %, 15–67 % of main's iterations); seed 0
 * (load 4.3–6.1) 0.93 % against 0.96 % (0.17 / 0.43 / 0.21 / 1.29 / 1.28 % against 0.19 / 1.54 /
 * 0.00 / 1.62 / 0.57 %). The five from X-n411 on run the same search as main, and came out at
 * 1.28 / 1.19 % against 1.41 / 1.13 %: the noise of one run. Seed 2 went the other way (load
 * 2.4–4.5): 1.09 % against 1.04 % (the five 0.65 / 0.42 / 0.41 / 1.43 / 1.60 % against 0.73 / 1.66 /
 * 0.00 / 0.79 / 0.51 %); seeds 3 and 4, the five alone (load 0.9–2.4): 0.68 / 0.64 % against 0.93 /
 * 0.83 %. Over the five seeds the five instances 0.73 % against 0.86 %, better on four seeds of five;
 * by instance, X-n190 better in every run (0.33–0.72 % against 1.45–1.81 %), X-n331 worse in four of
 * five (0.39–1.60 % against 0.28–0.59 %), X-n237 in four of five. Solomon and every problem whose
 * windows bind are untouched (not measured: their search is the same, the golden records too).
 * Then on a quiet machine (load 1.1–1.2), the merged build with it on beside 4c3d0a2, the ten at
 * 10 s: seed 0 1.04 % against 0.90 % (the five 0.17 / 0.64 / 0.60 / 1.47 / 1.83 % against 0.19 /
 * 1.54 / 0.26 / 1.13 / 0.07 %, 469–2,501 iterations against 4,565–9,702), seed 1 0.97 % against
 * 1.09 % (the five 0.91 / 0.62 / 0.93 / 1.41 / 0.95 % against 1.08 / 1.79 / 0.52 / 1.13 / 0.50 %:
 * 0.96 % against 1.00 %; the rest, the same search, 0.46–1.68 % against 0.62–1.68 %). Over the seven
 * runs X-n190 is the only instance it wins every time; X-n237, n284 and n331 lose in most. A user's
 * windowless, distance-priced plan of 100–399 stops would also search some 1.5–2× longer before it
 * stops by itself (X-n143 seed 0: 9.87 s against 5.80 s).
 * Why so few iterations (pen10, fresh processes on X-n237 at 10 s, `--cpu-prof` and counts): each
 * penalised polish tried 5,322 pairs and priced 2,284 moves against the feasible polish's 3,234 and
 * 664 (the filters let through every move within the penalty it takes off, and each was then priced
 * piece by piece), and half the polishes needed a repair, a second search as wide as the first and
 * with SWAP* (9,446 pairs each; the repair was 41 % of the run, and none of 662 failed). Now moves
 * are decided by their arcs and the change of the penalty from the routes' loads, with no route
 * walk (MoveEvaluator.arcsDecide; 2-opt* by its heads' loads, no longer by the two routes' whole
 * penalty), u's side of the penalty is kept per u (pair-arcs.ts), and the repair examines only the
 * stops of changed routes without SWAP* (penalised-polish.ts: 26 % of the run in a profile, but
 * 1 % fewer instructions at 300 iterations). Callgrind, X-n237 at 300 iterations, seed 0: 20.52 G
 * instructions against 23.91 G for main's penalised polish (without the repair's change 20.76 G,
 * and main's very plan). It still runs at a third to two thirds of main's iterations (the ten
 * below), and is no better at equal iterations: X-n190, n237,
 * n331 at 500 iterations in process, seeds 0 / 1 (load 9–10), 0.85 % mean gap against 0.78 %
 * without it (X-n190 0.77 / 0.54 % against 2.10 / 1.74 %, X-n237 1.16 / 0.61 % against 0.03 /
 * 0.21 %, X-n331 1.11 / 0.92 % against 0.18 / 0.44 %). The ten at 10 s, fresh processes, every size
 * (PENALISED_CAPACITY_MAX_STOPS lifted) beside main c721c4f and this build without it, one
 * interleaved run a seed (load 8.5–13.8, other benchmarks beside): seed 0 1.65 % against 1.17 /
 * 1.26 %, seed 1 1.68 % against 1.40 / 1.29 %; X-n143 … n331 1.38 / 1.43 % against 0.76 / 0.80 %
 * (main) and 0.96 / 0.70 % (this build), X-n411 … n1001 1.91 / 1.92 % against 1.58 / 2.01 % and
 * 1.56 / 1.88 %. At a lower load (5.9–7.4), the same lifted build with it against without it
 * (`--process --baseline` this build, one interleaved run a seed): the ten, seeds 0 / 1, 1.04 / 1.18 %
 * against 1.06 / 1.05 %; the five from X-n143 to n331 over seeds 0–3 0.60 / 0.64 / 0.98 / 0.72 %
 * against 0.84 / 0.91 / 0.85 / 0.93 % (X-n190 0.36 / 0.58 / 2.08 / 0.68 % against 1.54 / 1.79 /
 * 1.66 / 1.45 %; without X-n190 0.66 / 0.66 / 0.71 / 0.73 % against 0.66 / 0.69 / 0.64 / 0.80 %:
 * even; X-n331 worse on three seeds of four), X-n143 and n190 searching 1.3–1.8× longer (or to
 * the limit) before they stop by themselves; from X-n411 on 1.47 / 1.72 % against 1.27 / 1.20 %.
 * Still off: what it gains is X-n190's, the heavier load's run went the other way, and the next
 * quiet run should decide. HGS-CVRP (Vidal 2022) aims at 20 % feasible, adapts every 100
 * iterations by ×1.2 / ×0.85 and repairs only half the infeasible children (×10, then ×100), its
 * population keeping the rest; PyVRP aims at 43 % with one repair at ×12: both keep what a single
 * annealing trajectory throws away, an infeasible plan's descendants.
 */
export const PENALISED_CAPACITY_BY_DEFAULT = false;
/** From this many stops on (plain-30.json, 30 stops without windows, must end by itself within 1 s: untouched), … */
export const PENALISED_CAPACITY_MIN_STOPS = 100;
/**
 * …below this many: a penalised polish costs 2–6× the iterations, which problems of 400 stops and
 * more cannot spare at 10 s. The ten issue-26 X instances at 10 s in fresh processes beside main,
 * seed 0 (target 0.5, load 4.4–6.1): X-n143 … n331 0.17 / 0.51 / 0.56 / 1.09 / 0.41 % against 0.19 /
 * 1.54 / 0.57 / 1.10 / 0.57 % (16–55 % of main's iterations), X-n411 … n1001 1.53 / 1.38 / 1.51 /
 * 1.48 / 2.91 % against 1.17 / 1.32 / 1.22 / 0.96 / 1.79 % (20–45 %); mean 1.15 % against 1.04 %.
 */
export const PENALISED_CAPACITY_MAX_STOPS = 400;
/**
 * Target share of polished plans within every capacity before a repair, and the adaptation towards
 * it: every PENALISED_CAPACITY_ADAPT_EVERY polishes the penalty is multiplied by PENALTY_UP or
 * PENALTY_DOWN when the share is more than 0.05 off the target (HGS-CVRP's rule and factors; its
 * target is 0.2, every 100 iterations). The first penalty is PENALISED_CAPACITY_INITIAL_SHARE of
 * HGS-CVRP's (the longest arc over the largest demand). HGS-CVRP's own values, in process at 500
 * iterations on X-n284, n513, n801, n1001 (seed 0, load 6–7): 2.34 % mean gap against 2.31 % without
 * the lever: with the first penalty as HGS's every polished plan came out feasible, and 500 polishes
 * make only five adaptations. A third of it and adapting every 20 (target 0.2): 1.84 % in 3.5× the
 * time, and in fresh processes at 10 s beside main 1.93 % against 1.38 % (514 iterations on
 * average against 2,234; load 6–8). Target 0.5: 1.41 % against 1.39 % (1,158 iterations against
 * 4,541; X-n284 and n513 better, n801 and n1001 worse).
 */
export const PENALISED_CAPACITY_TARGET_FEASIBLE = 0.5;
export const PENALISED_CAPACITY_ADAPT_EVERY = 20;
export const PENALISED_CAPACITY_INITIAL_SHARE = 0.3;
export const PENALTY_UP = 1.2;
export const PENALTY_DOWN = 0.85;
export const PENALTY_MIN = 0.1;
export const PENALTY_MAX = 100_000;
/** HGS-CVRP's repair: the penalty ten times as high, then a hundred times (X-n237 at 10 s: 662 repairs, none failed). */
export const PENALISED_CAPACITY_REPAIR_FACTORS: readonly number[] = [10, 100];
/**
 * Whether the polish after a ruin and recreate lets routes break windows at a penalty a unit of
 * time warp where windows bind (search/penalised-polish.ts, HGS-TW's penalised local search: Vidal
 * et al. 2013; SolveOptions.penalisedWindows, `--with penalised-windows`), with the same repair and
 * adaptation as penalised capacity. The distance filters let through a move within its routes' time
 * warp's penalty (MoveEvaluator.warpRoom); the time bounds refuse nothing there. Off: it costs a
 * third to two thirds of the iterations and did not pay. Fresh processes, seed 0, one interleaved
 * run beside main 7f249e7 (`--process --no-warm --baseline <wrapper>`, an experiment build reading
 * the values below from the environment):
 * - Solomon's 56 at 2 s (load 0.6–1.8): 0.26 % against 0.27 %, 3,284 iterations on average against
 *   4,807, 26 of 56 runs cut by the clock (1.70 s of wall against 1.18 s). Better on RC202, RC203,
 *   RC204, RC207 (0 % against 0.4–1.4 %), worse on R208, R210, RC108 (1.3–1.6 % against 0–0.9 %).
 *   With the first penalty at 10 (the adapted one settles at 25–35 on R101): 0.27 %; at 30: 0.32 %;
 *   at 10 with a target of 0.7: 0.27 %.
 * - Gehring–Homberger R1_10_1 and RC1_10_1 at 120 s on 2 threads (load 0.2–2.2): 1.39 / 1.71 %
 *   against 1.07 / 0.86 %, with 452,000 / 565,000 iterations against 1.40 / 1.56 M.
 * - Only on each new best plan (the polished candidate better than the best, its penalised polish
 *   kept when it betters it further), Solomon at 2 s: 0.37 % against 0.27 %.
 * A polish priced with warp lacks the time bounds, which refuse nearly every move within a route in
 * a few reads (MoveEvaluator.mustBeLate), and half its plans came out late and needed a repair.
 */
export const PENALISED_WINDOWS_BY_DEFAULT = false;
/** The first price of a unit of time warp, as a share of what a unit of travel time costs in distance (initialWarpPenaltyOf). */
export const PENALISED_WINDOWS_INITIAL_SHARE = 1;
/** Target share of polished plans within every window before a repair (as PENALISED_CAPACITY_TARGET_FEASIBLE). */
export const PENALISED_WINDOWS_TARGET_FEASIBLE = 0.5;
/** …and a route whose load went down counts every stop of it as changed: moves into it may fit now (on for the row with it). */
export const CHANGED_STOPS_LOAD_RULE = true;
/**
 * Whether the local search also trades strings where windows do not bind (SolveOptions.stringSwaps,
 * ls/moves/swap-strings.ts: HGS-CVRP's SWAP(2,1) and SWAP(2,2), the RI moves it has and this search
 * lacked; decided in windowless.ts). Off: worse per iteration and dearer. CVRP X-n284 (2,000
 * iterations), n513 (1,500), n641 (1,000), n801 (800) and n1001 (600), in process, seeds 0 / 1,
 * mean gap and summed CPU (load 5–8): without 1.52 / 1.59 % (29.7 / 29.5 s), SWAP(2,1) and (2,2)
 * 1.64 / 1.77 % (35.9 / 33.1 s), SWAP(2,1) alone 1.69 / 1.73 % (31.7 / 30.9 s).
 */
export const STRING_SWAPS_BY_DEFAULT = false;
/**
 * Slots of SWAP*'s memo of route pairs tried in vain (ls/moves/swap-star-memo.ts), as a power of
 * two: 2^18 pairs in 2.3 MB, some hundreds of iterations' worth of route pairs on 1,000 stops.
 */
export const SWAP_STAR_MEMO_BITS = 18;
/** Largest problem on which moves priced by the exact evaluator still pay off (see LocalSearch.create). */
export const EXACT_MAX_STOPS = 1000;
/**
 * Granular neighbours per stop of the local search above EXACT_MAX_STOPS stops priced exactly
 * (SolveOptions.largeLocalSearch, experimental): a third of LS_NEIGHBOURS, so that one pass over a 5,000-stop
 * plan prices a third as many moves.
 */
export const LARGE_LS_NEIGHBOURS = 10;
/**
 * The operator counters time one call in this many of each operator: a clock read costs up to a
 * few hundred nanoseconds, more than many moves, and one in 64 keeps that below a percent.
 */
export const OPERATOR_TIMING_SAMPLE = 64;
/**
 * Prize moves (ls/prize.ts) during the search (SolveOptions.prizeInSearch): an unserved stop tries its this many nearest
 * neighbours as the stop to relocate or replace, and the relocated stop its this many as where
 * to go. Ten keeps a pass cheap with hundreds of unserved stops; the final claim on the best plan
 * uses the whole neighbour lists (NEIGHBOURS).
 */
export const PRIZE_NEIGHBOURS = 10;
/**
 * …and at most this many unserved stops are looked at per candidate: with dozens unserved and a
 * few routes (every ruin changes the neighbourhood of each), looking at all of them cut the
 * iterations by up to 3× on 150-stop generated problems.
 */
export const PRIZE_STOPS_PER_RUN = 16;
/**
 * Work (search/work.ts) the final claim (search/claim.ts) may do whatever the clock, per unit of
 * its size (unserved stops × the mean route length squared, claimSize; multi-1000's routes hold
 * ~14 stops). Run to its end on multi-1000, its prize passes took 60 a unit on the plan of 100
 * iterations and 120 on the first plan (at a 1–2 s limit, when the search never begins); 100
 * cut the last pass (the one proving nothing is left) at 5 s, so 200. By stops alone (20,000 an
 * unserved stop), a 300-stop, 10-driver generated project (routes of ~25) ran out and left two
 * relocations.
 */
export const PRIZE_CLAIM_WORK_PER_UNIT = 200;
/**
 * The local search between the passes opens room for more claims and undoes their detours: run to
 * its end it took 330 a unit on multi-1000 after 100 iterations (priority 11,828 and working time
 * 1,233,356 s, against 11,822 and 1,263,090 s with 25 a unit, and 11,824 and 1,239,829 s for the
 * build before, whose pass had no bound but the clock), so 400 where the search stopped by itself
 * or on its iteration limit. Where the clock cut it, the time is short and the polish of a first
 * plan costs far more (1,080 a unit, 27 M units): 25, which still serves 903 stops at 1 s
 * against 846 without it and 828 before.
 */
export const PRIZE_CLAIM_POLISH_PER_UNIT = 400;
export const PRIZE_CLAIM_CUT_POLISH_PER_UNIT = 25;
/**
 * Time is kept back from the search for the claim: the time (at WORK_UNITS_PER_MS) of this much
 * work per unit of the first plan's size, at most PRIZE_CLAIM_SHARE of the limit. After a search
 * cut at 5–10 s at a load of 7, multi-1000's claim did some 1.06 M units, 40 a unit of its first
 * plan's size (25,500: the search halves the unserved stops); after 600–1,500 iterations (load 5)
 * far less, and 40 ended its default-limit runs at 4.48–4.52 s of process wall against 4.89–4.99 s
 * for the build before (priority 11,896–11,902 against 11,900–11,910). 15: 4.77–4.88 s, priority
 * 11,891–11,902 against 11,900–11,902, working time 394–402 h against 396–400 h (four runs each).
 * Reserving the claim's whole share (225 a unit, capped at a tenth of the limit) ended runs at
 * 10 s some 0.9 s early.
 */
export const PRIZE_CLAIM_RESERVE_PER_UNIT = 15;
export const PRIZE_CLAIM_SHARE = 0.1;
/** Improvements smaller than this are round-off. */
export const IMPROVEMENT_EPS = 1e-7;
/** Time warp below this is round-off, not a broken window. */
export const TW_EPS = 1e-6;
/**
 * Weights of forced waiting and of time warp in the granular neighbour measure (as in Vidal's
 * HGS): waiting is a mild sign two stops do not belong together, warp a strong one.
 */
export const WAIT_WEIGHT = 0.2;
export const WARP_WEIGHT = 1;

// ── Decomposition on several threads (decompose/search.ts, decompose/parts.ts) ──────────────────

/**
 * Smallest problem the threads decompose by default: below it one search already covers the plan
 * many times over within seconds, and two independent searches are the better use of the cores.
 */
export const SPLIT_MIN_STOPS = 400;
/**
 * Share of the search (time or iterations) spent by independent searches of the whole problem
 * before the decomposition starts: the plan's routes must have settled into sectors first.
 */
export const SPLIT_WARMUP_SHARE = 0.1;
/**
 * One epoch of the decomposition: each part is searched apart this long, then the parts merge and
 * the borders move. Long enough that starting a sub-search (its instance, neighbour lists and a
 * first local search, tens of ms on 500 stops) is small beside it; short enough that the borders
 * move a dozen times in a minute. On Gehring–Homberger 1000 at 30 s, 4 s epochs after a 10%
 * warm-up did at least as well as 2 s after 20% or 1 s after 5% (noisy, one seed).
 */
export const SPLIT_EPOCH_MS = 4000;
/**
 * …and at least this share of the time limit (decompose/search.ts, epochMsOf; not under an
 * iteration limit): a run gets some fifteen epochs at most, 8 s each at 120 s, so that each part's
 * annealing goes further before the borders move; limits up to 60 s keep 4 s. Gehring–Homberger
 * R1_10_1 and RC1_10_1 at 120 s on 2 threads, fresh processes, one interleaved run a seed beside
 * 7f249e7, main's search (`npm run bench -- --set homberger-1000 --time 120 --threads 2 --process
 * --no-warm --baseline <wrapper>`, an experiment build reading the epoch from the environment; load
 * 0.6–2.0):
 * 8 s epochs, seeds 0–3, 1.05 / 1.27 / 0.97 / 1.08 % against 1.15 / 1.37 / 1.40 / 1.26 % (mean
 * 1.09 % against 1.29 %, better on every seed): R1_10_1 0.86 / 1.03 / 0.94 / 1.07 % against 1.10 /
 * 1.37 / 1.01 / 1.17 %, RC1_10_1 1.24 / 1.50 / 0.99 / 1.08 % against 1.20 / 1.36 / 1.78 / 1.35 %,
 * with as many iterations (1.5–1.8 M). 16 s epochs, seeds 2 / 3: 1.30 / 1.33 %. Then main 3d3457f
 * (this rule) beside 7f249e7 (load 1.3–2.0), seeds 4 / 5: 1.28 / 1.00 % against 1.03 / 1.19 %
 * (R1_10_1 1.25 / 0.81 % against 0.90 / 1.15 %, RC1_10_1 1.30 / 1.18 % against 1.15 / 1.23 %).
 * Over the six seeds 1.11 % against 1.23 %, better on five.
 */
export const SPLIT_EPOCHS_PER_LIMIT = 15;
/**
 * Parts per thread and epoch (searched one after the other, sharing the epoch). Quarters of
 * Gehring–Homberger 1000 on two threads were no better than halves at 30 s, so one part a thread.
 * Nor at 120 s, where each quarter gets 4 s of an 8 s epoch: R1_10_1 and RC1_10_1 on 2 threads,
 * fresh processes, one interleaved run a seed beside main (`npm run bench -- --set homberger-1000
 * --time 120 --threads 2 --process --no-warm --baseline <build>`, load 0.6–2.5), seeds 6–18: 1.17 %
 * mean against 1.20 %, better on 8 of 13 seeds, the paired difference (0.04 ± 0.04) within one
 * standard error; seeds 6–12 had R1_10_1 better on 6 of 7 and RC1_10_1 worse on 5 of 7, seeds 13–18
 * the other way (R1_10_1 1.11 % against 1.09 %, RC1_10_1 1.21 % against 1.26 %). Quarters on every
 * other epoch only, seeds 13–15: 1.21 % against 1.19 %; quarters from the cooling's middle on,
 * seeds 16–18: 1.27 % against 1.16 %.
 */
export const SPLIT_PARTS_PER_THREAD = 1;
/**
 * Whether a part's local search reads its neighbour rules (lsNeighboursOf, examinesChangedRoutesOnly,
 * firstPlanNeighboursOf) from the whole problem's stop count rather than the part's
 * (decompose/search.ts, partsPolishRuleStops): Gehring–Homberger 1000 on 2 threads cuts 500-stop
 * parts, which polished with 15 neighbours (30 in each epoch's first polish) and every stop near a
 * changed route, while the whole problem's polish, FEW_LS_NEIGHBOURS and CHANGED_ROUTES_ONLY_WITH_FEW,
 * is the one measured better there. Fresh processes at 30 s on 2 threads beside main (927315a),
 * R1_10_1 and RC1_10_1, load 4.5–7: seed 0 2.33 / 2.78 % against 2.98 / 2.75 % (29,814 / 64,036
 * iterations against 10,153 / 16,712), seed 1 2.55 / 3.67 % against 3.12 / 2.81 % (40,279 / 22,913
 * against 16,722 / 17,443): 2.4× the iterations, mean 2.83 % against 2.92 %. In process at 15,000
 * iterations a thread (seed 0, load 6–7) 2.41 / 3.08 % against 2.92 / 2.59 %: the same per
 * iteration. At 120 s on 2 threads, fresh processes beside main, one interleaved run per seed
 * (load 5.6–10.8): seed 0 1.87 / 1.98 % against 2.02 / 2.14 % (115,544 / 134,136 iterations
 * against 57,550 / 70,103), seed 1 1.78 / 1.68 % against 1.78 / 2.57 % (163,792 / 211,365 against
 * 74,336 / 115,632): mean 1.83 % against 2.13 %, better or equal on 4 of 4. Changes problems of
 * 1,000 stops or more on several threads only, and only where the segment summaries price the
 * moves (LocalSearch.create): exactly priced parts (multi-1000) keep their own rules, as the
 * whole's 30 neighbours there were not measured.
 */
export const PARTS_POLISH_AS_WHOLE = true;
/** Under an iteration limit, the decomposition's share of it is cut into this many epochs. */
export const SPLIT_EPOCHS_UNDER_ITERATIONS = 8;
/**
 * With the stall stop on, the decomposition stops after this many epochs in a row without a better
 * plan (of SPLIT_EPOCH_MS each). 3 ended runs at 120 s on 2 threads early: GH1000 R1_10_1, seed 1,
 * fresh processes (load 3.8–5.7): main 5e6f986 at 117.4 s with 1.73 %, the build with
 * FLEET_IN_SPLIT_WARMUP on at 101.3 s with 1.79 %; with 6 (and FLEET_IN_SPLIT_WARMUP off, as main)
 * the run went on to 119.7 s and 1.46 %. R1_10_1 seed 0 and RC1_10_1 seeds 0 and 1 ran to the limit
 * with 3 on both builds, and so did R1_10_2 seed 1 (load 4.7–5.6): 1.56 % against main's 2.52 %
 * with the same search, so one run's spread at this load is up to a point of gap and the 1.46 %
 * alone proves little. What 6 changes: only runs that stall (several threads, from SPLIT_MIN_STOPS
 * stops on), which then search up to 12 s longer before stopping by themselves.
 */
export const SPLIT_STALL_EPOCHS = 6;

// ── Population (search/population.ts, search/crossover.ts, search/restarts.ts) ──────────────────

/**
 * Plans the elite pool holds (SolveOptions.population). HGS keeps 25–65; here members come only
 * from trajectory stalls (a few to a few dozen a run), so a handful is what a run fills. This and
 * the next two are HGS's kind of values, not tuned here.
 */
export const POPULATION_SIZE = 8;
/** HGS's nbElite: this many of the cheapest members keep a biased fitness led by cost. */
export const POPULATION_ELITES = 2;
/** HGS's nbClose: a member's diversity is its mean broken-pairs distance to this many closest members. */
export const POPULATION_CLOSEST = 3;
/**
 * The trajectory restarts from a child once this many iterations in a row have not bettered its
 * best plan since its last restart, at least POPULATION_STALL_MIN_ITERATIONS. With the search's
 * start plan admitted to the pool too (POPULATION_ADMITS_START), so that the first stall already
 * has two parents. Measured together on 14 Solomon instances at 2,000 iterations, seed 0: 1 a stop
 * with the start plan 0.09% mean gap, 2 a stop without it 0.21%, no population 0.17%. (One seed:
 * the two were not told apart.)
 */
export const POPULATION_STALL_MIN_ITERATIONS = 100;
export const POPULATION_STALL_PER_STOP = 1;
export const POPULATION_ADMITS_START = true;
/** SREX hands the child at most this share of parent A's routes (at least one; the count drawn uniformly); not tuned. */
export const SREX_MAX_ROUTE_SHARE = 0.5;
/**
 * Whether a solve uses the population when SolveOptions.population is absent. Off: it has not paid
 * at equal time. Per iteration it helps a little (Solomon, 14 instances, 2,000 iterations, seeds
 * 0–2: 0.20% mean gap with it, 0.23% without; 7 of them at 6,000: 0.21% vs 0.27%), but in fresh
 * processes at --time-limit 2 (load 8) it gave 1.05% against 1.07% without, and on GH1000 R1_10_1
 * at 30 s the trajectory never stalled long enough to restart (3.28% either way). At 30 s on seven
 * Solomon instances it gained (seed 0: 0.24% vs 0.28%, seed 1: 0.25% vs 0.48%, most of it one
 * instance) but ran some 15% longer before the stall stop, and bakery.yaml under load ran to its
 * limit instead of stopping by itself (same plan): the no-flag runs must stay short (issue 26).
 * On CVRP X-n143, n190, n237, n284, n331 and n411 in process at 10 s, seeds 0 / 1 (load 3.5–5):
 * 1.01 / 0.80 % mean gap with it against 0.77 / 0.75 % without.
 * Solomon R1, RC1, RC2 at 3,000 iterations in process, seed 0 (load 3–4): 0.52 % against 0.43 %
 * without (RC1 0.84 % against 0.39 %).
 * On the faster search of stop 40, Solomon's 56 at 2 s in fresh processes, seed 0 (load 1.5;
 * `--with population` beside the build without): 0.27 % against 0.27 %, every run stopping by itself.
 */
export const POPULATION_BY_DEFAULT = false;

// ── Fleet minimisation (search/fleet.ts) ──────────────────────────────────────────────────────

/**
 * Whether the fleet minimisation (search/fleet.ts; SolveOptions.fleetMinimisation, `--with
 * fleet-minimisation` / `--without fleet-minimisation`) runs once during the search where windows
 * bind, from FLEET_MIN_STOPS stops on, when the option is absent. Off: it did not pay at 10 s.
 * Gehring–Homberger 1000 R1_10_1–5 and RC1_10_1–5 in fresh processes at 10 s, seed 0, one
 * interleaved run beside main 5e6f986 (load 3.4–4.7): 3.74 % mean gap (11,557 iterations on
 * average) against 3.37 % (16,476), one route fewer on 4 of 10 (R1_10_2 96 against 100 routes,
 * 3.43 % against 4.08 %), worse on 8 of 10; on R1_10_1, RC1_10_1, R1_10_4, RC1_10_4 (load 4.6–6)
 * 3.24 % against 3.27 %, the same route counts. The phase removes few routes from a plan the
 * annealing has packed (R1_10_1 at 30 % of the run: 2–5 of 114 in some 20,000 of its iterations,
 * RC1_10_1 5–6 of 96–98), and the annealing's recreate opens routes again where a removed stop fits
 * nowhere else: RC1_10_1 ended at 94 routes from the phase's 91–92. Run at the start instead (the
 * first plan: R1_10_1 161 routes, RC1_10_1 121) it removed 22 and 27 routes in 40 % of the run's
 * work, routes the annealing removes by itself too (3.71 / 4.43 % against 2.97 / 3.25 %, one run
 * each). Holding the fleet after the phase (the recreate opening no unused vehicle) kept RC1_10_1 at
 * 92 routes but ended at 4.08 / 4.61 % (phase at 30 % / 15 %; one run each, load 4.6). Acceptance
 * (R1_10_1 / RC1_10_1 at 30 %, one run each): SISR's (fewer left out, or a smaller sum of absences)
 * took out 1 / 1 route and left 1 / 132 stops out at the end; with "does not grow" 0 / 0 (77 / 83
 * out); fewer left out or as many with a sum that does not grow (this one) 0 / 3, and 2–5 / 5–6 with
 * FLEET_TRIES_PER_ROUTE.
 */
export const FLEET_MINIMISATION_BY_DEFAULT = false;
export const FLEET_MIN_STOPS = 1000;
/**
 * Whether, when SolveOptions.fleetMinimisation is absent, the warm-up of a decomposition on several
 * threads (decompose/search.ts: independent searches of the whole problem) runs it. Off: not shown
 * to pay. In process at 30 s on 2 threads, seed 0 (load 4–5), R1_10_1 and RC1_10_1: 2.00 / 2.50 %
 * (101 / 94 routes) against 2.03 / 2.67 % (102 / 93); the phase took 1.9–2.9 s of each thread's
 * warm-up. In every epoch's parts too (from 400 stops on) it took 0.5–3 s of each 4 s epoch: 2.10 /
 * 3.92 %. Fresh processes at 120 s on 2 threads beside main 5e6f986, one interleaved run per seed:
 * seed 0 (load 2.7–7) 1.88 / 1.65 % (100 / 92 routes) against 1.82 / 2.20 % (102 / 93); seed 1
 * (load 3.8–5.4) 1.79 / 2.00 % (100 / 92) against 1.73 / 2.00 % (101 / 93): mean 1.83 % against
 * 1.94 %, one route fewer in all four, but better on one of four, worse on two (by 0.06).
 * Again on the faster search of stop 41 (1.6–1.8 M iterations a run), beside main 7f249e7, seeds
 * 0 / 1 / 2 (load 1.5–2.2): 1.02 / 1.18, 1.04 / 1.09, 1.15 / 1.31 % (100 / 92, 97 / 92, 100 / 92
 * routes) against 1.35 / 1.11, 1.17 / 1.26, 0.95 / 1.14 % (101 / 92, 99 / 92, 98 / 92): mean
 * 1.13 % against 1.16 %, better on three of six.
 */
export const FLEET_IN_SPLIT_WARMUP = false;
/**
 * Its budget: this share of the work of the search's time (WORK_UNITS_PER_MS), some 1 s of a 10 s
 * run on Gehring–Homberger 1000 (its ruins and recreates do some 5,600 units a millisecond there), …
 */
export const FLEET_WORK_SHARE = 0.2;
/** …or of an iteration limit, in its own iterations (a ruin and recreate without polish each). */
export const FLEET_ITERATION_SHARE = 0.2;
/**
 * When it runs: after this share of an iteration limit, or of the work of the search's time; by
 * then the annealing has packed the first plan's routes (see FLEET_MINIMISATION_BY_DEFAULT).
 */
export const FLEET_START_SHARE = 0.3;
/**
 * Iterations on one route's stops without serving them all before the phase goes back to the last
 * plan serving every stop and takes out the next smallest route: on R1_10_1 at 30 % of a 10 s run
 * the phase stuck on one left-out stop for 30,000 iterations without it (0 routes removed, 2–5 with 1,000).
 */
export const FLEET_TRIES_PER_ROUTE = 1000;

// ── Fleet minimisation at the stall (search/fleet-at-stall.ts) ────────────────────────────────

/**
 * Whether the fleet minimisation runs where a small windowed search stalls (search/fleet-at-stall.ts;
 * SolveOptions.fleetAtStall, `--with fleet-at-stall` / `--without fleet-at-stall`) when the option is
 * absent. Off: it paid on one instance of ten and doubles the iterations of the others. In-process
 * solves at `--time-limit 30`, seed 0, each stopping by itself (load 4.9–6.6, beside the other
 * engineers' benchmarks): RC101 1635.7 / 16 routes (6,012 iterations) → 1631.3 / 15 (13,476), 0.98 %
 * → 0.71 % against the best-known 1619.8 / 15; seeds 1 and 2 unchanged (1635.7 and 1634.2, 16 routes,
 * 5,986 → 12,390 and 5,952 → 11,872 iterations: the 15-route plan's continuation never beat the
 * 16-route one). R101, R105, R109, R201, R205, RC105, RC201, RC205, C101: the same plans, iterations
 * 4,835 → 11,048 (R101), 5,962 → 11,870 (R105), 6,592 → 11,211 (R201), 5,081 → 8,157 (R205),
 * 9,978 → 18,575 and cut by the 30 s limit (RC105), 4,864 → 9,087 (RC201), 4,801 → 8,817 (RC205);
 * R109 and C101 unchanged (the phase found no route to take out). The mean gap of the ten: 0.15 % →
 * 0.12 %. Where the iterations grew the phase took a route out (else the search stops at once),
 * but the search from the smaller fleet, cold, stayed above the plan it stalled on. Going on from
 * a full reheat instead (the cooling restarted, as Cooling.reheat does): RC101 seeds 0–2 all at 16
 * routes (1635.7, 1635.7, 1634.2; 12,046–12,277 iterations; load 4.8): the hot annealing opens the
 * route again, as gh5 saw on Gehring–Homberger (FLEET_MINIMISATION_BY_DEFAULT). At 2 s on
 * 100 stops the search is clock-led and never stalls, so the phase does not run there.
 */
export const FLEET_AT_STALL_BY_DEFAULT = false;
/** Up to this many stops: the Solomon instances (100) where the stall comes with one route too many. */
export const FLEET_AT_STALL_MAX_STOPS = 200;
/** Its budget each time, in its own iterations (a ruin and recreate without polish) per stop. */
export const FLEET_AT_STALL_ITERATIONS_PER_STOP = 30;
/** Stalls at which it runs at most: each one that removes a route gives the search a fresh stall budget. */
export const FLEET_AT_STALL_ROUNDS = 3;

// ── Route minimisation by an ejection pool (search/ejection-pool.ts, fewer-routes.ts) ──────────

/**
 * Whether, where a small windowed search stops by itself before its limit, the ejection pool takes
 * a route out of its best plan and a second search runs at that smaller fleet, its plan kept when it
 * ends better (fewer-routes.ts; SolveOptions.ejectionPool, `--with ejection-pool` / `--without
 * ejection-pool`) when the option is absent. On: it pays at 30 s, costs wall time, and never changes
 * the main search's plan (it runs after it, and its plan is kept only when better).
 * Fresh processes at `--time-limit 30` on R101, R105, R109, R201, R205, RC101, RC105, RC201, RC205,
 * C101, interleaved with main 4c3d0a2 (load 5–7, the other engineers' benchmarks beside): seed 0
 * 0.05 % mean gap against 0.15 % (RC101 1619.8 with 15 routes, the best-known, against 1635.7 with
 * 16; the other nine equal), process wall 7.9 s against 5.0 s; seed 1 0.06 % against 0.11 % (RC101
 * 0.48 % with 15 routes against 0.98 % with 16; the others equal), 11.3 s against 7.1 s; seed 2
 * (load 4–5) 0.08 % against 0.16 % (RC101 1619.8 / 15 against 0.89 % / 16), 8.4 s against 5.8 s.
 * With EJECTION_POOL_WORK_SHARE, seed 0 again (load 4.5–6.4): the same plans and iterations, 0.05 %
 * against 0.15 %, 11.2 s against 7.2 s. RC101 at the default 5 s limit: no round (the same plan and
 * 6,012 iterations as main, stopped at 3.0 s against main's 3.7 s). Where the
 * second trajectory runs and loses (R101: 19 routes, worse than its 20-route plan) the solve takes
 * about twice as long, still within its limit. At `--time-limit 2` the search is clock-led and never
 * stops by itself, so the rounds do not run: Solomon's 56, seed 0 (load 5–7), 0.53 % against 0.49 %,
 * noise. In process at 300 iterations (the golden record's RC201): 1267.0 with 7 routes against
 * 1281.7 with 8. Not tried: above 200 stops (Gehring–Homberger 1000 never stops by itself at 10 s),
 * the pool on the first plan with the fleet then held, the squeeze step of the paper.
 */
export const EJECTION_POOL_BY_DEFAULT = true;
/** Up to this many stops: the Solomon instances (100), where the search stalls well within 30 s. */
export const EJECTION_POOL_MAX_STOPS = 200;
/**
 * The share of the limit's work (WORK_UNITS_PER_MS × its span) the main search and the rounds may
 * take together: a round starts only when its pool's budget and a search as long as the main one
 * still fit in it. Solomon's searches do some 11,000–13,000 units a millisecond (R101 33 M units in
 * a search of about 3 s, RC101 45 M), more than WORK_UNITS_PER_MS, so 2.5 is some 60–70 % of the
 * limit there: at 30 s every round fits (R101: 84 M after its round, of 224 M), at 10 s R101's
 * one round (70 M of 74 M) but not RC101's (93 M), at the default 5 s none, so a solve that stops
 * by itself at 3 s does not run on to its limit for a trajectory the deadline would cut.
 */
export const EJECTION_POOL_WORK_SHARE = 2.5;
/** Rounds at most: each one whose plan wins is followed by one with one route fewer again. */
export const EJECTION_POOL_ROUNDS = 3;
/**
 * The work (work.ts) one route's removal may take, per stop: some 0.1 s on 100 stops (the pool's
 * short evaluations do some 30,000 units a millisecond). From the first plan, seed 0, in process
 * (load 4.8), route after route until one fails: RC101 18 → 15 in 77 ms (then 108 ms without a 14th,
 * the minimum), R101 24 → 19 (the minimum) in 32 ms, R109 16 → 12 (the minimum 11), RC105 19 → 13 and
 * R201 10 → 4 (both the minimum), C101 none below its 10.
 */
export const EJECTION_WORK_PER_STOP = 30_000;
/** Stops ejected at most to make room for one (Nagata & Bräysy's k_max). */
export const EJECTION_MAX_EJECTED = 2;
/** Random feasible moves between two tries of the pool (the paper's perturbation). */
export const EJECTION_PERTURB_MOVES = 100;
