/* expect: process@14 process@16 process@17 process@18 process@19 network@20 network@22 dynload@23 dynload@24 process@25 */
#include <dlfcn.h>
#include <netinet/in.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
    pid_t pid = fork();
    if (pid == 0)
        execve("/bin/sh", (char *[]){"sh", NULL}, environ);
    system("id");
    FILE *f = popen("id", "r");
    posix_spawn(&pid, "/bin/true", NULL, NULL, (char *[]){"true", NULL}, environ);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    connect(s, (struct sockaddr *)&a, sizeof a);
    void *h = dlopen("libc.so.6", RTLD_NOW);
    void *sym = dlsym(h, "system");
    int (*sys)(const char *) = system;
    return f != NULL && sym != NULL && sys != NULL;
}
