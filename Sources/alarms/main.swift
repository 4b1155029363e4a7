import AlarmApp
import Glibc

exit(AlarmsApp.main())
