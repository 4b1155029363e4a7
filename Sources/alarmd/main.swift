print("alarmd")
