/* 300 MB of static data (bss): more than a small --mem lets execve map. */
static char big[300 << 20];
int main(void)
{
	big[4096] = 1;
	return big[8192];
}
