print("summit")
