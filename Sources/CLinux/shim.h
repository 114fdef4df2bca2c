// Linux interfaces that Swift's Glibc module does not export: epoll, eventfd, TCP options,
// thread names.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <pthread.h>

// glibc declares accept4 only under _GNU_SOURCE; declare it here with glibc's signature.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// Likewise pthread_setname_np (glibc 2.12 and later).
extern int pthread_setname_np(pthread_t thread, const char *name);
