/* false: do nothing, unsuccessfully. Arguments are ignored. */
int main(void)
{
	return 1;
}
