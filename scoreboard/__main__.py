from scoreboard.cli import main

raise SystemExit(main())
