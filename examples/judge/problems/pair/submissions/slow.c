int main(void)
{
	for (volatile unsigned long i = 0;; i++)
		;
}
