from lsmrepro.claims.evaluate import main

main()
