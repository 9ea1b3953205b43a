/*
 * false: do nothing, unsuccessfully. As coreutils' false it ignores its
 * arguments, so it has no bad options.
 *
 * Exit status: 1, always.
 */
int main(void)
{
	return 1;
}
