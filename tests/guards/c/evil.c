/* A library outside the allowed paths: loading it runs its code. */
const char *evil_token(void);
const char *evil_token(void)
{
	return "evil-library-code-ran";
}
