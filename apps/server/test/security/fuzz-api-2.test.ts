import { fuzzConsoleRoutes } from './fuzz.js';

// Console routes split over three files so they run side by side; see fuzz.ts.
fuzzConsoleRoutes(1, 3);
