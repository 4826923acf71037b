from typhoon.cli import main

raise SystemExit(main())
