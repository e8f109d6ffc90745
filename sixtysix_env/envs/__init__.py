"""Environment adapters over the engine: PettingZoo AEC (and Gymnasium) interfaces."""
