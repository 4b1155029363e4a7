public enum AlarmCLI {}
