// Linux calls Glibc's Swift module leaves out: epoll and eventfd, for the gateway's event loop.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// accept4 is declared only under _GNU_SOURCE, which Glibc's module does not set.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
