// SPDX-License-Identifier: Apache-2.0
import AlarmSync
import Glibc

exit(SyncProcess.main())
