/* Writes through a NULL pointer: the kernel must kill this program with a
 * clear message and go on. */
int main(void)
{
	/* The pointer is volatile, so the compiler cannot know it is NULL (it
	 * would emit ud2 instead); the int is volatile, so the store stays. */
	volatile int *volatile nowhere = 0;
	*nowhere = 1;
	return 0;
}
