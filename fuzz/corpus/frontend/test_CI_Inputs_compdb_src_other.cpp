float z[100];
void other() {
  for (int i = 0; i < 100; ++i)
    z[i] = 0;
}
