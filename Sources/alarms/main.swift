// SPDX-License-Identifier: Apache-2.0
import AlarmApp
import Glibc

exit(AlarmsApp.main())
