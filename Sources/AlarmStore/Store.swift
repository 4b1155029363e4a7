import AlarmCore
