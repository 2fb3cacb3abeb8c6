// attack: memfd_execveat
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// cflags: -static
// evidence: a program copied into a memfd (never on disk) is executed with execveat(AT_EMPTY_PATH) and leaves canary memfd_payload_ran
// escaped-if: ev memfd_payload_ran
// variant: landlock | --landlock --no-fork --no-network --clean-env --cpu 5 --mem 256
// variant: landlock | --strict --no-fork --no-network --clean-env --cpu 5 --mem 256
#include "attack.h"
#include <sys/mman.h>
#include <sys/sendfile.h>

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[2], "payload")) {
		EV = argv[1];
		char exe[256] = { 0 };
		if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0)
			snprintf(exe, sizeof exe, "?");
		if (!strncmp(exe, "/memfd:", 7) || !strncmp(exe, "/proc", 5) || !strstr(exe, "memfd_execveat"))
			canary("memfd_payload_ran", exe);
		return 0;
	}
	attack_init(argc, argv);
	int fd = memfd_create("payload", 0);
	if (fd < 0) {
		say("memfd_create: %s\n", strerror(errno));
		return 1;
	}
	int self = open("/proc/self/exe", O_RDONLY);
	struct stat st;
	fstat(self, &st);
	off_t off = 0;
	while (off < st.st_size)
		if (sendfile(fd, self, &off, st.st_size - off) <= 0)
			break;
	char *av[] = { "payload", (char *)EV, "payload", NULL };
	char *env[] = { NULL };
	syscall(SYS_execveat, fd, "", av, env, AT_EMPTY_PATH);
	say("execveat: %s\n", strerror(errno));
	return 1;
}
