import { run } from './action/run.js';

// The action's entry point: everything else lives behind run().
void run();
