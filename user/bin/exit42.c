/* Prints nothing and exits with status 42: the kernel must report it. */
int main(void)
{
	return 42;
}
