// Linux calls Glibc's Swift module leaves out: epoll and eventfd for the gateway's event loop, thread names.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

// accept4 is declared only under _GNU_SOURCE, which Glibc's module does not set.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

// Thread names the OS shows (top -H, gdb), also declared only under _GNU_SOURCE.
#include <pthread.h>
extern int pthread_setname_np(pthread_t thread, const char *name);
extern int pthread_getname_np(pthread_t thread, char *name, size_t size);
