/*
 * test_results.c: unit tests of src/results: the JSON reader (escapes, 64-bit counts read
 * exactly, errors with line and column, a depth limit instead of a stack overflow), the
 * writer's output read back, sparse histogram buckets added exactly, and a result document
 * written and read back unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "results/json.h"
#include "results/result_io.h"
#include "tap.h"

static void test_reader(void)
{
  char err[256];
  const char *text = "{\"a\": [1, 18446744073709551615, -2.5e3], "
                     "\"s\": \"x\\n\\u00e9\\ud83d\\ude00\\\"\", \"t\": true, \"n\": null}";
  json_value *v = json_parse(text, strlen(text), err, sizeof(err));
  ok(v != NULL && v->type == JSON_OBJECT && v->count == 4, "an object with four members");
  const json_value *a = json_get(v, "a");
  uint64_t big = 0;
  double d = 0;
  ok(a != NULL && a->count == 3 && json_u64(a->items[1], &big) && big == UINT64_MAX,
     "2^64-1 reads back exactly");
  ok(json_double(a->items[2], &d) && d == -2500, "-2.5e3 is a number");
  ok(!json_u64(a->items[2], &big), "a negative number is not a count");
  ok(strcmp(json_string(json_get(v, "s")), "x\n\xc3\xa9\xf0\x9f\x98\x80\"") == 0,
     "escapes: newline, \\u00e9 and a surrogate pair become UTF-8");
  ok(json_get(v, "t")->boolean && json_get(v, "n")->type == JSON_NULL, "true and null");
  json_free(v);

  v = json_parse("{\"a\": 1,\n \"b\" 2}", 17, err, sizeof(err));
  ok(v == NULL && strcmp(err, "line 2, column 6: expected ':' after the member name \"b\"") == 0,
     "an error names line and column: %s", err);
  v = json_parse("[1] x", 5, err, sizeof(err));
  ok(v == NULL && strstr(err, "unexpected text after the end") != NULL, "trailing text: %s", err);
  v = json_parse("\"abc", 4, err, sizeof(err));
  ok(v == NULL && strstr(err, "ends inside a string") != NULL, "an open string: %s", err);

  char deep[100001];
  memset(deep, '[', sizeof(deep) - 1);
  deep[sizeof(deep) - 1] = '\0';
  v = json_parse(deep, strlen(deep), err, sizeof(err));
  ok(v == NULL && strstr(err, "nested deeper than") != NULL,
     "100000 nested arrays: an error, not a stack overflow (%s)", err);
}

static void test_writer(void)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  json_writer w;
  json_writer_init(&w, f);
  json_begin_object(&w, NULL);
  json_put_string(&w, "q", "a\"b\\c\n\t\x01");
  json_put_u64(&w, "max", UINT64_MAX);
  json_put_double(&w, "third", 1.0 / 3.0);
  json_begin_array(&w, "xs", true);
  json_put_i64(&w, NULL, -4);
  json_put_i64(&w, NULL, 5);
  json_end(&w);
  json_begin_object(&w, "empty");
  json_end(&w);
  json_end(&w);
  json_finish(&w);
  fclose(f);

  char err[256];
  json_value *v = json_parse(buf, len, err, sizeof(err));
  uint64_t max = 0;
  double third = 0;
  ok(v != NULL, "the writer's output parses (%s)", v ? "ok" : err);
  ok(v && strcmp(json_string(json_get(v, "q")), "a\"b\\c\n\t\x01") == 0, "strings round-trip");
  ok(v && json_u64(json_get(v, "max"), &max) && max == UINT64_MAX, "64-bit counts round-trip");
  ok(v && json_double(json_get(v, "third"), &third) && third == 1.0 / 3.0,
     "doubles round-trip exactly");
  ok(strstr(buf, "\"xs\": [-4, 5]") != NULL, "one-line arrays stay on one line");
  json_free(v);
  free(buf);
}

static void test_buckets(void)
{
  uint32_t ia[] = {3, 300, 4000}, ib[] = {2, 300, 5000};
  uint64_t ca[] = {1, 2, 3}, cb[] = {10, 20, 30};
  result_buckets a = { .n = 3, .index = malloc(sizeof(ia)), .count = malloc(sizeof(ca)) };
  result_buckets b = { .n = 3, .index = ib, .count = cb };
  memcpy(a.index, ia, sizeof(ia));
  memcpy(a.count, ca, sizeof(ca));
  ok(result_buckets_add(&a, &b) == 0 && a.n == 5, "adding two bucket lists: the union of buckets");
  ok(a.index[0] == 2 && a.index[1] == 3 && a.index[2] == 300 && a.index[3] == 4000 &&
     a.index[4] == 5000, "... in ascending order");
  ok(a.count[0] == 10 && a.count[1] == 1 && a.count[2] == 22 && a.count[3] == 3 &&
     a.count[4] == 30, "... shared buckets added, others kept");
  ok(result_buckets_total(&a) == 66, "total 66");
  free(a.index);
  free(a.count);
}

static void test_document(void)
{
  result_doc doc = {0}, back = {0};
  result_run r = {0};
  char err[512];

  r.test = strdup("oltp_read_write");
  r.sysbench_version = strdup("1.0.20");
  r.driver = strdup("mysql");
  r.threads = 2;
  r.start_unix_ns = UINT64_C(1700000000123456789);
  r.report_interval = 1;
  r.percentile_count = 2;
  r.percentiles[0] = 95;
  r.percentiles[1] = 99.9;
  r.clients = calloc(1, sizeof(result_client));
  r.client_count = 1;
  r.clients[0].host = strdup("h");
  r.clients[0].threads = 2;
  r.clients[0].start_unix_ns = r.start_unix_ns;
  r.final.time = r.final.duration = 10.5;
  r.final.events = 3;
  r.final.reads = UINT64_C(1) << 60;
  r.final.latency_sum_ns = 600;
  r.final.has_extremes = true;
  r.final.latency_min_ns = 100;
  r.final.latency_max_ns = 300;
  r.final.statements[0] = 42;
  result_add_error_code(&r.final, "1213", 7);
  r.final.thread_count = 2;
  r.final.thread_events = calloc(2, sizeof(uint64_t));
  r.final.thread_time_ns = calloc(2, sizeof(uint64_t));
  r.final.thread_events[0] = 1;
  r.final.thread_events[1] = 2;
  latency_histogram *h = histogram_new();
  histogram_record(h, 100);
  histogram_record(h, 200);
  histogram_record(h, 300);
  result_buckets_from_histogram(&r.final.histogram, h);
  histogram_free(h);
  result_doc_add_run(&doc, &r);

  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  result_write_json(f, &doc);
  fclose(f);
  int rc = result_read_text(buf, len, &back, err, sizeof(err));
  ok(rc == 0, "a written document reads back (%s)", rc ? err : "ok");
  if (rc == 0) {
    const result_run *b = &back.runs[0];
    ok(strcmp(b->test, "oltp_read_write") == 0 && b->threads == 2 &&
       b->start_unix_ns == UINT64_C(1700000000123456789), "test, threads and start kept");
    ok(b->final.reads == (UINT64_C(1) << 60) && b->final.events == 3 &&
       b->final.latency_sum_ns == 600, "counts kept exactly");
    ok(b->final.histogram.n == 3 && result_buckets_total(&b->final.histogram) == 3,
       "the histogram kept");
    ok(b->final.error_code_count == 1 && strcmp(b->final.error_codes[0].code, "1213") == 0 &&
       b->final.error_codes[0].count == 7, "errors by code kept");
    ok(b->percentile_count == 2 && b->percentiles[1] == 99.9, "percentiles kept");
    ok(result_percentile_ns(&b->final, 50) == 200, "the median of 100, 200, 300 ns is 200");
  }
  result_doc_free(&back);

  /* The same text with a histogram one latency short: refused, naming the field. */
  char *cut = strstr(buf, "[[100, 1], [200, 1], [278, 1]]");
  ok(cut != NULL, "the histogram is written as [bucket, count] pairs");
  if (cut != NULL) {
    memcpy(cut, "[[100, 1], [200, 1], [278, 0]]", 30);
    rc = result_read_text(buf, len, &back, err, sizeof(err));
    ok(rc != 0 && strcmp(err, "runs[0].final.histogram: holds 2 latencies, but the period has "
                         "3 events") == 0, "a histogram that lost an event is refused: %s", err);
  }
  free(buf);
  result_doc_free(&doc);
}

int main(void)
{
  test_reader();
  test_writer();
  test_buckets();
  test_document();
  return tap_done();
}
