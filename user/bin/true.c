/*
 * true: do nothing, successfully. As coreutils' true it ignores its
 * arguments, so it has no bad options.
 *
 * Exit status: 0, always.
 */
int main(void)
{
	return 0;
}
