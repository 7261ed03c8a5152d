/*
 * test_fileio_aio_queue.c: unit tests for src/builtin/fileio_aio_queue.c, fileio's queue of
 * asynchronous requests, on a fake AIO interface and a fake clock, so they assert what the
 * queue decides, never how fast anything ran:
 *
 *  - which clock reads time a request: a request done inside its submission (a buffered file)
 *    is timed to the return of that submission, not to the reap of a full backlog; one found
 *    at a poll is timed at the poll; one waited for, at the return of the wait;
 *  - when a submission waits, and when rndrw's read/write ratio sees requests: only once
 *    --file-async-backlog requests are submitted and not reaped, as sysbench 1.0.20 does;
 *  - draining, failures, buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/fileio_aio_queue.h"
#include "tap.h"

#define MAX_SLOTS 16
#define MAX_FINISHED 64

/* The fake kernel and clock. */
static struct {
  uint64_t now;
  uint64_t submit_cost;         /* the clock moves this much inside a submission */
  uint64_t wait_cost;           /* ... and this much inside a wait, which then ends one request */
  bool done_on_submit;          /* a buffered file: the I/O is done inside io_submit */
  bool refuse_submit;
  unsigned order[MAX_SLOTS * 4];  /* slots in the order they were submitted */
  unsigned submitted;
  bool done[MAX_SLOTS];           /* finished, not collected */
  bool pending[MAX_SLOTS];        /* submitted, not finished */
  unsigned done_order[MAX_SLOTS * 4];
  unsigned done_count, collected_count;
  unsigned waits;               /* collects that blocked */
  unsigned clock_reads;
  int fail_finished_at;         /* finished() fails for this request (1-based), 0: never */
  struct {
    fileio_op op;
    uint64_t pos;
    uint64_t latency;
  } finished[MAX_FINISHED];
  unsigned finished_count;
  const unsigned char *buffers[MAX_FINISHED];   /* the buffer each submission used */
} fake;

static void fake_reset(void)
{
  memset(&fake, 0, sizeof(fake));
}

static void device_finishes(unsigned slot)
{
  fake.pending[slot] = false;
  fake.done[slot] = true;
  fake.done_order[fake.done_count++] = slot;
}

static int fake_submit(void *context, unsigned slot, const fileio_request *r,
                       unsigned char *buffer)
{
  (void) context;
  (void) r;
  if (fake.refuse_submit)
    return -1;
  fake.now += fake.submit_cost;
  fake.buffers[fake.submitted] = buffer;
  fake.order[fake.submitted++] = slot;
  fake.pending[slot] = true;
  if (fake.done_on_submit)
    device_finishes(slot);
  return 0;
}

/* The oldest submitted request still pending. */
static int oldest_pending(void)
{
  for (unsigned i = 0; i < fake.submitted; i++)
    if (fake.pending[fake.order[i]])
      return (int) fake.order[i];
  return -1;
}

static int fake_collect(void *context, bool wait, aio_completion *out, unsigned max)
{
  (void) context;
  if (wait && fake.collected_count == fake.done_count) {
    int slot = oldest_pending();
    if (slot < 0)
      return -1;                /* would block for ever */
    fake.waits++;
    fake.now += fake.wait_cost;
    device_finishes((unsigned) slot);
  }
  unsigned n = 0;
  while (fake.collected_count < fake.done_count && n < max) {
    unsigned slot = fake.done_order[fake.collected_count++];
    fake.done[slot] = false;
    out[n].slot = slot;
    out[n].result = 4096;
    n++;
  }
  return (int) n;
}

static uint64_t fake_now(void)
{
  fake.clock_reads++;
  return fake.now;
}

static int fake_finished(void *context, const fileio_request *r, const unsigned char *buffer,
                         int64_t result, uint64_t latency_ns, bool measured)
{
  (void) context;
  (void) buffer;
  (void) result;
  (void) measured;
  unsigned i = fake.finished_count++;
  fake.finished[i].op = r->op;
  fake.finished[i].pos = r->pos;
  fake.finished[i].latency = latency_ns;
  return (int) i + 1 == fake.fail_finished_at ? -1 : 0;
}

static const aio_queue_ops fake_ops = {
  .submit = fake_submit,
  .collect = fake_collect,
  .now_ns = fake_now,
  .finished = fake_finished,
};

static uint64_t ratio_reads, ratio_writes;

static aio_queue make_queue(unsigned backlog, bool own_buffers)
{
  aio_queue q;
  ratio_reads = ratio_writes = 0;
  if (aio_queue_init(&q, &fake_ops, NULL, backlog, 4096, own_buffers, &ratio_reads,
                     &ratio_writes) != 0) {
    printf("Bail out! aio_queue_init failed\n");
    exit(1);
  }
  return q;
}

static fileio_request request(fileio_op op, uint64_t pos)
{
  return (fileio_request) { .op = op, .file = 0, .pos = pos, .size = 4096 };
}

/* An event starting at `start` that submits one request. */
static int event_submits(aio_queue *q, uint64_t start, fileio_op op, uint64_t pos)
{
  fake.now = start;
  fileio_request r = request(op, pos);
  return aio_queue_submit(q, &r, start, true);
}

static void buffered_requests_are_timed_to_their_submission(void)
{
  fake_reset();
  fake.done_on_submit = true;
  fake.submit_cost = 7;
  aio_queue q = make_queue(4, false);

  bool all_seven = true, each_seen_at_once = true;
  for (unsigned i = 0; i < 10; i++) {
    event_submits(&q, 1000 * (i + 1), FILEIO_OP_READ, 4096 * i);
    each_seen_at_once &= fake.finished_count == i + 1;
    all_seven &= fake.finished[i].latency == 7;
  }
  ok(each_seen_at_once, "buffered: each request is seen complete right after its own submission");
  ok(all_seven, "buffered: each latency is the 7 ns its submission took, not the wait for "
     "a full backlog of 4 (the first would be 3007 ns)");
  ok_num(fake.waits, ==, 0, "buffered: no submission ever blocks");
  aio_queue_free(&q);
}

static void the_ratio_sees_requests_as_1_0_20_reaps_them(void)
{
  fake_reset();
  fake.done_on_submit = true;
  aio_queue q = make_queue(4, false);

  for (unsigned i = 0; i < 3; i++)
    event_submits(&q, 100 * i, FILEIO_OP_READ, 0);
  ok(ratio_reads == 0 && ratio_writes == 0,
     "3 of 4 submitted: the ratio has seen nothing yet (1.0.20 reaps only a full backlog)");
  ok_num(fake.finished_count, ==, 3, "... though the report has counted all 3");
  event_submits(&q, 300, FILEIO_OP_READ, 0);
  ok(ratio_reads == 4 && ratio_writes == 0, "the 4th fills the backlog: all 4 reads reaped");
  event_submits(&q, 400, FILEIO_OP_WRITE, 0);
  event_submits(&q, 500, FILEIO_OP_WRITE, 0);
  event_submits(&q, 600, FILEIO_OP_READ, 0);
  ok(ratio_reads == 4 && ratio_writes == 0, "3 more: still 4 reads, no write");
  event_submits(&q, 700, FILEIO_OP_WRITE, 0);
  ok(ratio_reads == 5 && ratio_writes == 3, "the next full backlog: 5 reads, 3 writes");
  ok_num(fake.waits, ==, 0, "a full backlog of completed requests is reaped without waiting");
  aio_queue_free(&q);
}

static void a_full_backlog_waits_and_times_at_the_wait(void)
{
  fake_reset();
  fake.submit_cost = 1;
  fake.wait_cost = 40;
  aio_queue q = make_queue(2, false);

  event_submits(&q, 0, FILEIO_OP_READ, 0);         /* A, in flight */
  ok(fake.finished_count == 0 && fake.waits == 0, "direct: one in flight, no wait");
  event_submits(&q, 10, FILEIO_OP_WRITE, 4096);    /* B fills the backlog of 2 */
  ok_num(fake.waits, ==, 1, "direct: a full backlog with nothing complete waits");
  ok(fake.finished_count == 1 && fake.finished[0].pos == 0,
     "the wait ends with the first request complete");
  ok_num(fake.finished[0].latency, ==, 51, "... timed when the wait returned: 11 + 40 - 0 ns");
  ok(ratio_reads == 1 && ratio_writes == 0, "... and reaped into the ratio");

  /* B finishes while the worker does something else; the next event's poll finds it. */
  device_finishes(fake.order[1]);
  fake.now = 200;
  unsigned reads_before = fake.clock_reads;
  ok_num(aio_queue_poll(&q), ==, 1, "a poll takes the one completion there is");
  ok_num(fake.finished[1].latency, ==, 190, "... timed at the poll: 200 - 10 ns");
  ok_num(fake.clock_reads - reads_before, ==, 1, "... with one clock read");
  ok(ratio_writes == 0, "... and the ratio waits for the next full backlog to see it");
  reads_before = fake.clock_reads;
  ok_num(aio_queue_poll(&q), ==, 0, "a poll with nothing complete takes nothing");
  ok_num(fake.clock_reads - reads_before, ==, 0, "... and reads no clock");

  /* B is held: the next submission fills the backlog again and reaps B without waiting. */
  event_submits(&q, 300, FILEIO_OP_READ, 8192);
  ok(fake.waits == 1 && ratio_writes == 1,
     "a full backlog holding a completion reaps it without waiting");
  aio_queue_free(&q);
}

static void drain_times_each_completion_as_it_comes(void)
{
  fake_reset();
  fake.wait_cost = 5;
  aio_queue q = make_queue(8, false);

  for (unsigned i = 0; i < 3; i++)
    event_submits(&q, 0, FILEIO_OP_READ, 4096 * i);
  ok_num(aio_queue_drain(&q), ==, 0, "drain: 0");
  ok(fake.finished_count == 3 && fake.finished[0].latency == 5 &&
     fake.finished[1].latency == 10 && fake.finished[2].latency == 15,
     "drain: each request is timed as the wait that found it returns (5, 10, 15 ns)");
  ok_num(q.in_flight, ==, 0, "drain: nothing left in flight");
  aio_queue_free(&q);
}

static void a_failure_stops_counting_but_empties_the_queue(void)
{
  fake_reset();
  fake.wait_cost = 1;
  fake.fail_finished_at = 1;
  aio_queue q = make_queue(8, false);

  for (unsigned i = 0; i < 3; i++)
    event_submits(&q, 0, FILEIO_OP_WRITE, 4096 * i);
  ok_num(aio_queue_drain(&q), ==, -1, "a request that fails makes the drain fail");
  ok(fake.finished_count == 1 && q.in_flight == 0,
     "... the others are waited for but not counted");

  fake_reset();
  fake.refuse_submit = true;
  aio_queue r = make_queue(4, false);
  ok_num(event_submits(&r, 0, FILEIO_OP_READ, 0), ==, -1, "a refused submission fails");
  ok(r.free_count == 4 && r.in_flight == 0, "... and gives its slot back");
  aio_queue_free(&q);
  aio_queue_free(&r);
}

static void buffers(void)
{
  fake_reset();
  fake.done_on_submit = true;
  aio_queue shared = make_queue(4, false);
  event_submits(&shared, 0, FILEIO_OP_READ, 0);
  event_submits(&shared, 0, FILEIO_OP_READ, 0);
  event_submits(&shared, 0, FILEIO_OP_WRITE, 0);
  ok(fake.buffers[0] == fake.buffers[1] && fake.buffers[2] != fake.buffers[0],
     "without --validate all reads share a buffer, writes another");
  aio_queue_free(&shared);

  fake_reset();
  aio_queue own = make_queue(4, true);
  unsigned char *next = aio_queue_next_buffer(&own);
  event_submits(&own, 0, FILEIO_OP_WRITE, 0);
  event_submits(&own, 0, FILEIO_OP_READ, 4096);
  ok(fake.buffers[0] == next, "--validate: a write goes out from the buffer next_buffer gave");
  ok(fake.buffers[1] != fake.buffers[0],
     "--validate: requests in flight have buffers of their own");
  aio_queue_free(&own);
}

int main(void)
{
  buffered_requests_are_timed_to_their_submission();
  the_ratio_sees_requests_as_1_0_20_reaps_them();
  a_full_backlog_waits_and_times_at_the_wait();
  drain_times_each_completion_as_it_comes();
  a_failure_stops_counting_but_empties_the_queue();
  buffers();
  return tap_done();
}
