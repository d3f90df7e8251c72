from bench.compare.run import main

main()
