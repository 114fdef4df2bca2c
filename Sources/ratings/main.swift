print("ratings")
