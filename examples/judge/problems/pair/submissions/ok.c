/* The last pair found scanning from the right: often not the reference's. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int n;
	long t;
	if (scanf("%d %ld", &n, &t) != 2)
		return 1;
	long *a = malloc(sizeof(*a) * (size_t)n);
	for (int i = 0; i < n; i++)
		if (scanf("%ld", &a[i]) != 1)
			return 1;
	for (int j = n - 1; j > 0; j--)
		for (int i = j - 1; i >= 0; i--)
			if (a[i] + a[j] == t) {
				printf("%d %d\n", i + 1, j + 1);
				return 0;
			}
	return 1;
}
