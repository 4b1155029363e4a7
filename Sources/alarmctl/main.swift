import AlarmCLI
