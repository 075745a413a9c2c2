// The console app's first module (main.tsx imports it before anything else, so that no other module's
// start-up prints): like the guest page, it keeps its console output in the 110-entry buffer instead of
// printing it (docs/operations.md §13; a development build prints it too), readable as `__lobbyConsole()`.
import { keepConsoleOutput } from '@lobby/call/console';

keepConsoleOutput({ print: import.meta.env.DEV });
