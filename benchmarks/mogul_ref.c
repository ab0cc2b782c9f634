/* A C reference for the batch simulator: classic Mogul, uniformly random bots, one core.

   benchmarks/bench_fast.py compiles it (cc -O2) when a C compiler is present and prints the
   batch simulator's speed as a fraction of this one, measured in the same run. The rules are
   those of fast_kernels.py (reveal, premiums, the auction with bid/drop/credit, the winner's
   take-or-sell and the runner-up's other action, the crash), and so are the random numbers:
   splitmix64 streams with a multiply-shift onto 0..n-1, each game's deal from a stream of its
   own and each seat's random bot from another, seeded as fast.stream_seeds seeds them from
   SEED, drawn in the same order. So the games are the batch simulator's very games: the mean
   score printed equals fast.play_fresh(GAMES, PLAYERS, "random", seed=SEED)'s.

   usage: mogul_ref GAMES PLAYERS SEED CHIPS_TOTAL CHIPS_PER_PLAYER CREDIT_CHIPS
                    CREDIT_POINTS CHIPS_PER_POINT CRASH_LAST CARD...   (CARD: company border S)
   prints: games, seconds, mean score (a check that the rules behave as the simulator's). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SEATS 6
#define COMPANIES 5
#define CARDS 40
#define CRASH -1

static uint64_t streams[1 + SEATS]; /* the deal's, then each seat's */

static uint64_t next64(uint64_t *state) { /* splitmix64 */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* 0..n-1 from stream k */
static int below(int k, int n) { return (int)(((next64(&streams[k]) >> 32) * (uint64_t)n) >> 32); }

static int box_company[CARDS], box_border[CARDS], box_starting[CARDS], box_size;
static int chips_total, chips_per_player, credit_chips, credit_points, chips_per_point, crash_last;

typedef struct {
    int players, chips[SEATS], points[SEATS], shares[SEATS][COMPANIES], bank;
    int pile_company[CARDS], pile_border[CARDS], pile_size, top;
} Table;

static int market(const Table *t, int company) {
    int total = 0;
    for (int s = 0; s < t->players; s++) total += t->shares[s][company];
    return total;
}

static void shuffle(int *x, int n) { /* from the deal's stream */
    for (int i = n - 1; i > 0; i--) {
        int j = below(0, i + 1), k = x[i];
        x[i] = x[j];
        x[j] = k;
    }
}

static void deal(Table *t, int players) {
    int starting[CARDS], rest[CARDS], pile[CARDS], ns = 0, nr = 0, n = 0;
    for (int i = 0; i < box_size; i++) {
        if (box_starting[i]) starting[ns++] = i; else rest[nr++] = i;
    }
    shuffle(starting, ns);
    *t = (Table){0};
    t->players = players;
    for (int s = 0; s < players; s++) t->shares[s][box_company[starting[s]]] += 1;
    for (int i = players; i < ns; i++) pile[n++] = starting[i];
    for (int i = 0; i < nr; i++) pile[n++] = rest[i];
    shuffle(pile, n);
    int size = n + 1, window = crash_last + 1 < size ? crash_last + 1 : size;
    int crash = size - 1 - below(0, window), j = 0;
    for (int i = 0; i < size; i++) {
        if (i == crash) { t->pile_company[i] = CRASH; continue; }
        t->pile_company[i] = box_company[pile[j]];
        t->pile_border[i] = box_border[pile[j++]];
    }
    t->pile_size = size;
    for (int s = 0; s < players; s++) t->chips[s] = chips_per_player;
    t->bank = chips_total - players * chips_per_player;
}

/* The winner's or runner-up's right: take the share, or sell n border shares. */
static void use_right(Table *t, int seat, int company, int border, int take, int sell) {
    if (take) { t->shares[seat][company] += 1; return; }
    t->points[seat] += sell * market(t, border);
    t->shares[seat][border] -= sell;
}

static void play(Table *t) {
    int start = below(0, t->players), n = t->players;
    for (;;) {
        int company = t->pile_company[t->top], border = t->pile_border[t->top];
        t->top++;
        if (company == CRASH) return;
        for (int s = 0; s < n; s++) t->points[s] += t->shares[s][company];
        int in[SEATS] = {0}, credited[SEATS] = {0}, left = n, seat = start, pot = 0, last = -1;
        for (int s = 0; s < n; s++) in[s] = 1;
        while (left > 1) { /* the auction: bid, drop or credit, uniformly among the legal */
            int can_bid = t->chips[seat] > 0;
            int can_credit = t->bank >= credit_chips && !credited[seat];
            int i = below(1 + seat, 1 + can_bid + can_credit);
            if (can_bid && i == 0) {
                t->chips[seat] -= 1;
                pot += 1;
            } else if ((can_bid ? i - 1 : i) == 0) {
                t->chips[seat] += pot;
                pot = 0;
                in[seat] = 0;
                left -= 1;
                last = seat;
            } else {
                t->chips[seat] += credit_chips;
                t->points[seat] -= credit_points;
                t->bank -= credit_chips;
                credited[seat] = 1;
                continue; /* the same player then bids or drops */
            }
            do seat = (seat + 1) % n; while (!in[seat]);
        }
        int winner = seat, runner_up = last;
        int owned = t->shares[winner][border], choice = below(1 + winner, owned + 2);
        if (choice == 0) { /* the winner takes; the runner-up may sell */
            use_right(t, winner, company, border, 1, 0);
            int sell = below(1 + runner_up, t->shares[runner_up][border] + 1);
            use_right(t, runner_up, company, border, 0, sell);
            start = winner;
        } else { /* the winner sells; the runner-up takes */
            use_right(t, winner, company, border, 0, choice - 1);
            use_right(t, runner_up, company, border, 1, 0);
            start = runner_up;
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 10) {
        fprintf(stderr, "usage: mogul_ref GAMES PLAYERS SEED CHIPS_TOTAL CHIPS_PER_PLAYER "
                        "CREDIT_CHIPS CREDIT_POINTS CHIPS_PER_POINT CRASH_LAST CARD...\n");
        return 2;
    }
    long games = atol(argv[1]);
    int players = atoi(argv[2]);
    uint64_t counter = strtoull(argv[3], NULL, 10); /* the seeds' splitmix64 sequence */
    chips_total = atoi(argv[4]);
    chips_per_player = atoi(argv[5]);
    credit_chips = atoi(argv[6]);
    credit_points = atoi(argv[7]);
    chips_per_point = atoi(argv[8]);
    crash_last = atoi(argv[9]);
    for (int i = 10; i < argc && box_size < CARDS; i++, box_size++) {
        box_company[box_size] = argv[i][0] - '0';
        box_border[box_size] = argv[i][1] - '0';
        box_starting[box_size] = argv[i][2] - '0';
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    double total = 0;
    Table t;
    for (long g = 0; g < games; g++) {
        for (int k = 0; k <= players; k++) streams[k] = next64(&counter) >> 1;
        deal(&t, players);
        play(&t);
        for (int s = 0; s < players; s++) total += t.points[s] + t.chips[s] / chips_per_point;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double seconds = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%ld %.6f %.4f\n", games, seconds, total / ((double)games * players));
    return 0;
}
