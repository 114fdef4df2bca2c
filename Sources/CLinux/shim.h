// Linux interfaces that Swift's Glibc module does not export: epoll, eventfd, TCP options.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

// glibc declares accept4 only under _GNU_SOURCE; declare it here with glibc's signature.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
