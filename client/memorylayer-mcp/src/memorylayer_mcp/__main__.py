from memorylayer_mcp.server import main

main()
