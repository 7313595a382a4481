from jiancha.cli.main import main

main()
