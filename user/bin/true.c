/* true: do nothing, successfully. Arguments are ignored. */
int main(void)
{
	return 0;
}
