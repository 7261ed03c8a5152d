/*
 * test_sbtest_rows.c: unit tests for src/sbtest_rows.{h,c}: a row depends on (seed, table, id)
 * alone -- not on the thread, on the rows made before it, or on what the thread's own stream
 * did -- and borrows the thread's generator without disturbing it; k follows --rand-type over
 * 1..table_size; the templates are kept; the text forms are what LOAD DATA / COPY and INSERT
 * read; templates the text forms cannot carry are refused.
 */
#include "rand.h"
#include "sbtest_rows.h"
#include "tap.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define SEED UINT64_C(20250101)
#define ROWS 100000

static const char *c_template =
  "###########-###########-###########-###########-###########-###########-###########-"
  "###########-###########-###########";
static const char *pad_template = "###########-###########-###########-###########-###########";

static void configure(rand_distribution type)
{
  rand_config c = {
    .type = type, .spec_iter = 12, .spec_pct = 1, .spec_res = 75,
    .pareto_h = 0.2, .zipfian_exp = 0.8, .seed = SEED,
  };
  rand_configure(&c);
}

static bool same_row(const sbtest_rows *rows, const sbtest_row *a, const sbtest_row *b)
{
  return a->id == b->id && a->k == b->k && memcmp(a->c, b->c, rows->c_len) == 0 &&
         memcmp(a->pad, b->pad, rows->pad_len) == 0;
}

typedef struct {
  const sbtest_rows *rows;
  int64_t first, last;
  uint64_t sum_k;
} worker_args;

/* Another thread, with a stream of its own, makes rows in reverse order. */
static void *make_backwards(void *arg)
{
  worker_args *w = arg;
  sbtest_row row;
  rand_thread_init(7);
  for (int64_t id = w->last; id >= w->first; id--) {
    (void) sb_rand_uniform_uint64();
    sbtest_row_make(w->rows, id, &row);
    w->sum_k += (uint64_t) row.k;
  }
  return NULL;
}

int main(void)
{
  sbtest_rows rows, other_table, other_seed;
  sbtest_row a, b;
  const char *why = NULL;

  configure(DIST_SPECIAL);
  rand_thread_init(0);
  ok(sbtest_rows_init(&rows, SEED, 1, ROWS, c_template, pad_template, &why),
     "the stock templates are accepted");
  ok(rows.c_len == 119 && rows.pad_len == 59, "c is 119 characters, pad 59");

  /* the same row twice, whatever happened in between */
  sbtest_row_make(&rows, 12345, &a);
  for (int i = 0; i < 1000; i++)
    (void) sb_rand_uniform_uint64();
  sbtest_row_make(&rows, 777, &b);
  sbtest_row_make(&rows, 12345, &b);
  ok(same_row(&rows, &a, &b), "row 12345 is the same after other draws and other rows");
  rand_thread_init(99);
  sbtest_row_make(&rows, 12345, &b);
  ok(same_row(&rows, &a, &b), "... and after the thread was seeded as another thread");

  /* the thread's own stream is left where it was */
  rand_thread_init(3);
  uint64_t first = sb_rand_uniform_uint64();
  rand_thread_init(3);
  sbtest_row_make(&rows, 1, &b);
  ok(sb_rand_uniform_uint64() == first, "making a row leaves the thread's own stream alone");

  /* other ids, tables and seeds give other rows */
  sbtest_row_make(&rows, 12346, &b);
  ok(!same_row(&rows, &a, &b) && b.id == 12346, "the next id gives another row");
  sbtest_rows_init(&other_table, SEED, 2, ROWS, c_template, pad_template, NULL);
  sbtest_row_make(&other_table, 12345, &b);
  ok(memcmp(a.c, b.c, rows.c_len) != 0, "the same id of another table gives another row");
  sbtest_rows_init(&other_seed, SEED + 1, 1, ROWS, c_template, pad_template, NULL);
  sbtest_row_make(&other_seed, 12345, &b);
  ok(memcmp(a.c, b.c, rows.c_len) != 0, "another seed gives another row");

  /* the same rows on another thread, in another order */
  uint64_t sum_k = 0;
  bool k_in_range = true, template_kept = true;
  for (int64_t id = 1; id <= 20000; id++) {
    sbtest_row_make(&rows, id, &b);
    sum_k += (uint64_t) b.k;
    k_in_range &= b.k >= 1 && b.k <= ROWS;
    template_kept &= b.c[11] == '-' && b.pad[23] == '-' && b.c[0] >= '0' && b.c[0] <= '9';
  }
  worker_args w = { .rows = &rows, .first = 1, .last = 20000 };
  pthread_t t;
  pthread_create(&t, NULL, make_backwards, &w);
  pthread_join(t, NULL);
  ok(w.sum_k == sum_k, "another thread making the rows backwards gets the same k's");
  ok(k_in_range, "k lies in 1..table_size");
  ok(template_kept, "c and pad follow their templates");

  /* k follows --rand-type: special puts a quarter of the rows around the middle */
  configure(DIST_UNIFORM);
  uint64_t middle = 0;
  for (int64_t id = 1; id <= 20000; id++) {
    sbtest_row_make(&rows, id, &b);
    middle += b.k >= ROWS / 2 - ROWS / 200 && b.k <= ROWS / 2 + ROWS / 200;
  }
  ok_num(middle, <, 600, "uniform k: about 1% of the rows in the middle 1%");
  configure(DIST_SPECIAL);
  middle = 0;
  for (int64_t id = 1; id <= 20000; id++) {
    sbtest_row_make(&rows, id, &b);
    middle += b.k >= ROWS / 2 - ROWS / 200 && b.k <= ROWS / 2 + ROWS / 200;
  }
  ok_num(middle, >, 20000 * 70 / 100, "special k: most of the rows in the middle 1%");

  /* text forms */
  char text[SBTEST_ROW_TEXT_MAX];
  b = a;
  b.id = 42;
  b.k = 7;
  size_t n = sbtest_row_tsv(&rows, &b, text);
  ok(n == 2 + 1 + 1 + 1 + 119 + 1 + 59 + 1 && memcmp(text, "42\t7\t", 5) == 0 &&
     text[5 + 119] == '\t' && text[n - 1] == '\n', "the tab-separated form: id, k, c, pad, newline");
  n = sbtest_row_values(&rows, &b, text);
  ok(n == 1 + 2 + 1 + 1 + 1 + 121 + 1 + 61 + 1 && memcmp(text, "(42,7,'", 7) == 0 &&
     memcmp(text + n - 2, "')", 2) == 0, "the VALUES form: (id,k,'c','pad')");
  b.id = -5;
  n = sbtest_row_values(&rows, &b, text);
  ok(memcmp(text, "(-5,7,'", 7) == 0, "negative numbers are written with their sign");

  /* templates the text forms cannot carry */
  ok(!sbtest_rows_init(&other_table, SEED, 1, ROWS, "##'##", pad_template, &why) &&
     strstr(why, "quote") != NULL, "a quote in a template is refused, saying why");
  ok(!sbtest_rows_init(&other_table, SEED, 1, ROWS, c_template, "a\tb", &why),
     "so is a tab");
  char long_template[300];
  memset(long_template, '#', sizeof(long_template) - 1);
  long_template[sizeof(long_template) - 1] = '\0';
  ok(!sbtest_rows_init(&other_table, SEED, 1, ROWS, long_template, pad_template, &why),
     "and a template longer than 255 characters");
  return tap_done();
}
