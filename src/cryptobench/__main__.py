from cryptobench.cli import main

main()
