/*
 * load_state.h: the state one `prepare` or `verify` of the sbtest tables shares between its
 * threads: the tables and how far each one is, the work items (id ranges of tables) the
 * threads take in turn, the waits between them (a table is created once, before anyone loads
 * into it; its index is built once, after everyone has), and Ctrl-C.
 *
 * Every table's ids 1..rows are cut into blocks of a size that depends on the row count
 * alone, and work items are runs of whole blocks: a block is what one statement (or one
 * transaction) loads, so after an interrupt each block is either complete, missing, or -- on
 * engines without transactions -- a prefix, whatever the thread count was (--resume relies
 * on that). With more threads than tables every table is cut into several items, so one big
 * table is loaded on all threads; otherwise each table is one item, as 1.0.20 did.
 *
 * The exported sb_load_* functions are called from Lua (sysbench.load, through FFI); each
 * thread of the command calls sb_load_start(), takes items with sb_load_next() until there
 * are none, and ends with sb_load_thread_done(); the last one calls sb_load_finish().
 */
#ifndef SB_LOAD_STATE_H
#define SB_LOAD_STATE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  LOAD_PREPARE = 0,
  LOAD_VERIFY = 1
} load_command;

typedef enum {
  TABLE_PENDING,      /* no thread has reached it yet */
  TABLE_CREATING,     /* the thread of its first item creates or inspects it */
  TABLE_LOADING,      /* its items are being loaded (or verified) */
  TABLE_FINISHING,    /* all rows are in; the index, the marker, the sizes */
  TABLE_DONE,
  TABLE_SKIPPED,      /* --resume found it complete */
  TABLE_FAILED
} load_table_phase;

/* What the thread that created or inspected a table found (sb_load_table_ready). */
typedef enum {
  READY_LOAD = 0,     /* go on: load (or verify) its items */
  READY_SKIP = 1,     /* nothing to load: the table is complete */
  READY_FAILED = 2    /* it cannot be loaded: the command stops */
} load_ready;

/* A run of whole blocks of one table, ids first_id..last_id. */
typedef struct {
  uint32_t table;
  int64_t first_id;
  int64_t last_id;
  bool first_of_table;   /* its thread creates (or inspects) the table before loading */
  uint32_t index;        /* position in the command's list */
} load_item;

/* Found by verify in one table. */
typedef struct {
  uint64_t rows;            /* rows read */
  uint64_t sum_k, sum_id;   /* over the rows read, to compare with the index */
  uint64_t missing;         /* ids of 1..rows not found */
  uint64_t duplicate;       /* ids found more than once */
  uint64_t outside;         /* rows with an id outside 1..rows */
  uint64_t k_out_of_range;  /* k outside 1..rows */
  uint64_t wrong_k;         /* k differs from the generated row */
  uint64_t wrong_text;      /* c or pad differs */
  char first_problems[4][160];
  unsigned problems_kept;
  int64_t missing_runs[8][2];   /* the first runs of missing ids, first..last */
  unsigned missing_runs_kept;
} load_verify_result;

typedef struct {
  uint32_t number;              /* N of sbtestN */
  load_table_phase phase;
  uint64_t rows_target;         /* rows the command handles */
  uint64_t rows_done;           /* loaded or checked so far (atomic): the progress */
  uint64_t rows_committed;      /* in the table for good: statements, transactions and files
                                   that completed, and rows --resume found (atomic) */
  uint64_t rows_present;        /* found already loaded by --resume */
  uint32_t items, items_done;
  uint64_t started_ns, finished_ns;
  const char *activity;         /* what its finishing thread does, for the progress lines */
  /* the size report; data and index -1 when the server does not say */
  uint64_t logical_bytes;
  int64_t data_bytes, index_bytes;
  load_verify_result verify;
  bool verify_failed;
  /* set by the thread that created or inspected it, read by those loading its items */
  uint64_t seed;                /* the --rand-seed its rows come from */
  bool resume;                  /* it was left incomplete: look at each block first */
} load_table;

/* ---- exported for sysbench.load (Lua, through FFI) ---- */

/* The next item: 1, or 0 when there are none left or the command is stopping. Waits until
   the item's table is ready (created by the thread of its first item). */
int sb_load_next(load_item *item);
void sb_load_table_ready(uint32_t table, int ready);
/* The item is done; 1 when it was its table's last, and the caller finishes the table. */
int sb_load_item_done(const load_item *item);
/* What the finishing thread is doing to a table, for the progress lines ("" when nothing). */
void sb_load_table_activity(uint32_t table, const char *activity);
/* The table is complete; sizes for the report (-1: not known). */
void sb_load_table_finished(uint32_t table, uint64_t logical_bytes, int64_t data_bytes,
                            int64_t index_bytes);
/* A thread hit an error (already reported): the others stop at their next item or block. */
void sb_load_fail(void);
/* 1 for the last thread of the command; it calls sb_load_finish(). */
int sb_load_thread_done(void);
bool sb_load_stopping(void);
bool sb_load_interrupted(void);
/* The seed a table's rows come from, and whether its blocks must be looked at first
   (--resume of a table left incomplete). Set before sb_load_table_ready(). */
void sb_load_table_rows_from(uint32_t table, uint64_t seed, bool resume);
uint64_t sb_load_table_seed(uint32_t table);
bool sb_load_table_resumed(uint32_t table);
/* The server refused the streamed load (LOAD DATA LOCAL INFILE): 1 for the first thread to
   say so (it prints the note), 0 after; sb_load_stream_refused() tells every thread. */
int sb_load_refuse_stream(void);
bool sb_load_stream_refused(void);
/* Rows of `table` loaded (or checked) by a loader, for the progress; in the table for good
   (a statement or transaction that completed: what an interrupted prepare leaves); found
   present by --resume (counted in both). */
void sb_load_rows_done(uint32_t table, uint64_t rows);
void sb_load_rows_committed(uint32_t table, uint64_t rows);
void sb_load_rows_present(uint32_t table, uint64_t rows);
/* The block size of a table of `rows` rows (ids per statement or transaction). */
int64_t sb_load_block_rows(uint64_t rows);

/* ---- for the loaders and the report (C) ---- */

/* Join the command (the first caller sets it up: *first then says so): `tables` tables
   sbtest1.., `rows` each, `threads` threads calling. 0, or -1 when the arguments differ from
   the first caller's. (sb_load_start, load_report.c, is what Lua calls.) */
int load_state_begin(int command, uint32_t tables, uint64_t rows, uint32_t threads,
                     bool *first);
/* Whether a command began; at its end it no longer owns SIGINT and SIGTERM (signals.h). */
bool load_state_started(void);
void load_state_end(void);

/* SYSBENCH_TEST_LOAD_DELAY=seconds: loaders wait that long before each block, so that tests
   see progress lines and can interrupt a load in its middle whatever the machine's speed.
   False when the command is stopping. */
bool sb_load_test_pause(void);
/* What a driver does when an interrupted command ends without waiting for a thread still
   busy after the grace period (see load_report.c): remove the temporary files such a thread
   was writing, say. Called from the progress reporter's thread, right before _exit(). */
void sb_load_on_forced_exit(void (*cleanup)(void));

/* The command's table `number`, or NULL when no command runs or it has no such table. The
   pointer stays valid for the process's life; the verify fields are its finisher's. */
load_table *load_state_table(uint32_t number);
/* Calls fn for every table under the state's lock. */
void load_state_each_table(void (*fn)(const load_table *t, void *arg), void *arg);
uint32_t load_state_table_count(void);
load_command load_state_command(void);
/* Nanoseconds since the command started. */
uint64_t load_state_elapsed_ns(void);
/* A thread failed (sb_load_fail, or a table that could not be created). */
bool load_state_failed(void);
/* The signal that interrupted the command (0 while none did). */
int load_state_signal(void);
/* Called by the progress reporter once a second after an interrupt: true when every
   thread has ended. */
bool load_state_all_threads_done(void);
/* Runs the driver's sb_load_on_forced_exit() function, if any. */
void load_state_forced_exit(void);

#endif
