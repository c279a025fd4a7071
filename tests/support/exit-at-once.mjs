// A server copy that cannot start (tests/support/cluster-dying.ts).
import process from "node:process";

process.exit(1);
