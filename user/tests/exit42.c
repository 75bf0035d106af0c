#include "arbor/user.h"

int main(void)
{
	return 42;
}
