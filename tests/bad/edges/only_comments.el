# FromNodeId ToNodeId
% nothing

