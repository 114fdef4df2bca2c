#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: one named wrapper per setting used.
   Turns off allocation statistics, which make every SQLite malloc take a global mutex. Must run
   before the first connection opens; later it returns SQLITE_MISUSE and changes nothing. */
static inline int ratings_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
