/*
 * The C floor of a durable PUT through HTTP on this machine: about the least a server can do to
 * take bench/put-ratings.lua's requests and answer each after its rating is durable. One thread, one
 * epoll loop, nothing else: each turn reads every request that has come in, writes them all in
 * one transaction with the statements of the write reference (rating-write.h, synchronous=FULL),
 * and answers each once COMMIT has returned. It parses only what those requests carry (the item
 * and rater from the path, the stars from the body; no validation, no JSON parser, no log, no
 * metrics), and answers with ANSWER_BYTES bytes (from the environment, required: the server's own
 * answer's length, so the loopback TCP work is the same). It waits for the disk on the thread that
 * serves the sockets, which the service may not do, and so has no hand-over at all.
 * With HANDOVER=1 it is built the way the service must be instead: the loop thread only serves the
 * sockets, and a writer thread takes every write waiting whenever it is free, runs them in one
 * transaction and wakes the loop (an eventfd) to answer them, while the loop goes on reading.
 * bench/bench.py measures both beside the service and the write reference, in the same rounds.
 *
 *   [HANDOVER=1] put-floor-server DATABASE MIGRATION.sql...
 *   prints: listening on http://127.0.0.1:PORT, then serves until killed; on SIGTERM it prints
 *           requests=N commits=N user_us=N system_us=N (CPU per request answered) and exits.
 */
#define _GNU_SOURCE /* memmem, accept4 */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rating-write.h"

#define MAX_FDS 4096
#define BUFFER_BYTES 4096
#define MAX_WAITING 4096

struct connection {
    char buffer[BUFFER_BYTES];
    int length;
};

struct waiting_write {
    int fd;
    char item[64], rater[96];
    int stars;
};

static struct connection *connections[MAX_FDS];
/* Two lists: with HANDOVER=1 the loop fills one while the writer writes the other. */
static struct waiting_write lists[2][MAX_WAITING];
static volatile sig_atomic_t stopping;
/* Used by whichever thread writes: the loop's, or with HANDOVER=1 the writer's alone. */
static struct rating_statements statements;
static long long now_ms;

static void on_term(int signal_number) { (void)signal_number; stopping = 1; }

/* Copies the text from `start` to the first `end` character before `limit` into `out`; 0 when
   there is none or the text does not fit. */
static int copy_until(const char *start, const char *limit, char end, char *out, size_t size) {
    if (start >= limit) return 0;
    const char *stop = memchr(start, end, (size_t)(limit - start) < size ? (size_t)(limit - start) : size);
    if (!stop) return 0;
    memcpy(out, start, stop - start);
    out[stop - start] = 0;
    return 1;
}

/* Takes the complete requests at the front of `c`'s buffer into `waiting`; -1 on a request this
   program does not understand. */
static int take_requests(int fd, struct connection *c, struct waiting_write *waiting, int *count) {
    int used = 0;
    while (*count < MAX_WAITING) {
        char *start = c->buffer + used;
        int available = c->length - used;
        char *end = memmem(start, available, "\r\n\r\n", 4);
        if (!end) break;
        char *length_field = memmem(start, end - start, "Content-Length: ", 16);
        int body = length_field ? atoi(length_field + 16) : 0;
        int total = (int)(end + 4 - start) + body;
        if (total > available) break;
        struct waiting_write *w = &waiting[*count];
        const char *item = start + strlen("PUT /v1/items/");
        if (strncmp(start, "PUT /v1/items/", 14) != 0 || !copy_until(item, end, '/', w->item, sizeof w->item)) return -1;
        const char *rater = item + strlen(w->item) + strlen("/ratings/");
        if (!copy_until(rater, end, ' ', w->rater, sizeof w->rater)) return -1;
        const char *stars = memmem(end + 4, body, "\"stars\":", 8);
        if (!stars) return -1;
        w->stars = atoi(stars + 8);
        w->fd = fd;
        (*count)++;
        used += total;
    }
    memmove(c->buffer, c->buffer + used, c->length - used);
    c->length -= used;
    return 0;
}

static void drop(int epoll, int fd) {
    epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    free(connections[fd]);
    connections[fd] = NULL;
}

/* Writes `count` ratings in one transaction and returns once COMMIT has. */
static void write_all(const struct waiting_write *waiting, int count) {
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "begin");
    for (int i = 0; i < count; i++)
        write_rating(&statements, waiting[i].item, waiting[i].rater, waiting[i].stars, now_ms);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
}

/* The hand-over (HANDOVER=1): the loop gives the writer a list when it is idle; the writer
   marks it written and writes to `written_event`, which the loop watches. */
static pthread_mutex_t handover_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t handover_ready = PTHREAD_COND_INITIALIZER;
static enum { WRITER_IDLE, WRITER_BUSY, WRITER_DONE } writer_state = WRITER_IDLE;
static const struct waiting_write *handed;
static int handed_count, written_event;

static void *writer_thread(void *unused) {
    (void)unused;
    /* Named as the service's threads are, so the benchmark times each thread of both alike. */
    pthread_setname_np(pthread_self(), "sqlite-writer");
    for (;;) {
        pthread_mutex_lock(&handover_lock);
        while (writer_state != WRITER_BUSY) pthread_cond_wait(&handover_ready, &handover_lock);
        pthread_mutex_unlock(&handover_lock);
        write_all(handed, handed_count);
        pthread_mutex_lock(&handover_lock);
        writer_state = WRITER_DONE;
        pthread_mutex_unlock(&handover_lock);
        uint64_t one = 1;
        if (write(written_event, &one, sizeof one) != sizeof one) { perror("eventfd"); exit(1); }
    }
    return NULL;
}

static double cpu_seconds(int user) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    struct timeval time = user ? usage.ru_utime : usage.ru_stime;
    return time.tv_sec + time.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s DATABASE MIGRATION.sql...\n", argv[0]); return 2; }
    /* At least the head and the longest body the ids allow, so content-length always holds. */
    int answer_bytes = getenv("ANSWER_BYTES") ? atoi(getenv("ANSWER_BYTES")) : 0;
    if (answer_bytes < 400 || answer_bytes > 3000) { fprintf(stderr, "ANSWER_BYTES must be set, from 400 to 3000\n"); return 2; }
    int handover = getenv("HANDOVER") && strcmp(getenv("HANDOVER"), "1") == 0;
    open_seeded(argv[1], argc - 2, argv + 2);
    statements = prepare_rating_statements();

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t address_length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1024) ||
        getsockname(listener, (struct sockaddr *)&address, &address_length)) { perror("listen"); return 1; }
    int epoll = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &event);
    if (handover) {
        written_event = eventfd(0, EFD_NONBLOCK);
        struct epoll_event written = {.events = EPOLLIN, .data.fd = written_event};
        epoll_ctl(epoll, EPOLL_CTL_ADD, written_event, &written);
        /* SIGTERM must reach the loop's thread, to end its epoll_wait: the writer never takes it. */
        sigset_t term_only, before;
        sigemptyset(&term_only);
        sigaddset(&term_only, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &term_only, &before);
        pthread_t writer;
        if (pthread_create(&writer, NULL, writer_thread, NULL)) { perror("pthread_create"); return 1; }
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        pthread_setname_np(pthread_self(), "loop-1");
    }
    struct sigaction term = {.sa_handler = on_term};
    sigaction(SIGTERM, &term, NULL);
    printf("listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);

    double user_before = cpu_seconds(1), system_before = cpu_seconds(0);
    long answered = 0, commits = 0; /* counted by the loop, as it answers a committed list */
    now_ms = wall_ms();
    /* The head is the same for every answer (the length has a fixed width), so it is written
       once; each answer writes its body after it and pads it with spaces to the length. */
    char answer[3200];
    const char *head_format = "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: %4d\r\n\r\n";
    int head = snprintf(answer, sizeof answer, head_format, 0);
    snprintf(answer, sizeof answer, head_format, answer_bytes - head);
    struct epoll_event events[256];
    int filling = 0, count = 0; /* the list the loop fills, and how many it holds */
    while (!stopping) {
        int ready = epoll_wait(epoll, events, 256, -1);
        if (ready < 0) { if (errno == EINTR) continue; perror("epoll_wait"); return 1; }
        const struct waiting_write *written = NULL; /* a list whose COMMIT has returned */
        int written_count = 0;
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (client >= MAX_FDS) { close(client); continue; }
                    connections[client] = calloc(1, sizeof(struct connection));
                    struct epoll_event client_event = {.events = EPOLLIN, .data.fd = client};
                    epoll_ctl(epoll, EPOLL_CTL_ADD, client, &client_event);
                }
                continue;
            }
            if (handover && fd == written_event) {
                uint64_t value;
                if (read(written_event, &value, sizeof value) != sizeof value) continue;
                pthread_mutex_lock(&handover_lock);
                if (writer_state == WRITER_DONE) {
                    written = handed;
                    written_count = handed_count;
                    writer_state = WRITER_IDLE;
                }
                pthread_mutex_unlock(&handover_lock);
                continue;
            }
            struct connection *c = connections[fd];
            ssize_t got = recv(fd, c->buffer + c->length, BUFFER_BYTES - c->length, 0);
            if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (got <= 0) { drop(epoll, fd); continue; }
            c->length += got;
            if (take_requests(fd, c, lists[filling], &count) < 0 || c->length == BUFFER_BYTES) {
                fprintf(stderr, "a request this program does not take; closing its connection\n");
                drop(epoll, fd);
            }
        }
        if (!handover) {
            if (count == 0) continue;
            write_all(lists[filling], count);
            written = lists[filling];
            written_count = count;
            count = 0;
        } else if (count > 0) {
            /* The writer takes everything waiting whenever it is idle, as the service's does. */
            pthread_mutex_lock(&handover_lock);
            if (writer_state == WRITER_IDLE) {
                handed = lists[filling];
                handed_count = count;
                writer_state = WRITER_BUSY;
                pthread_cond_signal(&handover_ready);
                filling = 1 - filling;
                count = 0;
            }
            pthread_mutex_unlock(&handover_lock);
        }
        if (written_count > 0) commits++;
        for (int i = 0; i < written_count; i++) {
            const struct waiting_write *w = &written[i];
            if (!connections[w->fd]) continue; /* closed after its request was read */
            int length = head + snprintf(answer + head, sizeof answer - head, "{\"itemId\":\"%s\",\"raterId\":\"%s\",\"stars\":%d}",
                                         w->item, w->rater, w->stars);
            memset(answer + length, ' ', answer_bytes - length);
            if (send(w->fd, answer, answer_bytes, MSG_NOSIGNAL) != answer_bytes) drop(epoll, w->fd);
            answered++;
        }
    }
    long per = answered ? answered : 1;
    printf("requests=%ld commits=%ld user_us=%.2f system_us=%.2f\n", answered, commits,
           (cpu_seconds(1) - user_before) * 1e6 / per, (cpu_seconds(0) - system_before) * 1e6 / per);
    /* The writer may be inside a transaction: the process exits without closing the database. */
    if (!handover) sqlite3_close(db);
    return 0;
}
