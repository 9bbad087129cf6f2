// Placeholder: the SOSD-style benchmark lands in the next commit.
int main() { return 0; }
